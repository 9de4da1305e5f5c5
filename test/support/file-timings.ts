// A mocha reporter that prints how long each test file took, hooks included (the figure a choice of
// what runs in which pass rests on): `npx mocha --reporter dist/test/support/file-timings.js`.
// Writes `SECONDS FILE` lines, slowest first, and the failures, to stdout at the end.
import Mocha from 'mocha';
import path from 'node:path';

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_FAIL, EVENT_RUN_END } = Mocha.Runner.constants;

class FileTimings extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const started = new Map<string, number>();
    const took = new Map<string, number>();
    const failed: string[] = [];
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (suite.file && suite.parent?.root) started.set(suite.file, started.get(suite.file) ?? Date.now());
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      if (suite.file && suite.parent?.root) took.set(suite.file, Date.now() - started.get(suite.file)!);
    });
    runner.on(EVENT_TEST_FAIL, (test, err: Error) => failed.push(`FAIL ${test.fullTitle()}: ${err.message.split('\n')[0]}`));
    runner.on(EVENT_RUN_END, () => {
      const root = process.cwd();
      for (const [file, ms] of [...took].sort((a, b) => b[1] - a[1])) process.stdout.write(`${(ms / 1000).toFixed(1)} ${path.relative(root, file)}\n`);
      for (const line of failed) process.stdout.write(`${line}\n`);
      process.stdout.write(`${this.stats.passes} passing, ${this.stats.failures} failing, ${this.stats.pending} pending, ${((this.stats.duration ?? 0) / 1000).toFixed(0)} s\n`);
    });
  }
}

export = FileTimings;
