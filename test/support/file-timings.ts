// A mocha reporter that prints how long each test file took, hooks included (the figure a choice of
// what runs in which pass rests on): `npx mocha --reporter dist/test/support/file-timings.js`.
// Writes `WALL CPU FILE` lines in seconds (file-clock.ts), slowest first, and the failures, to
// stdout at the end.
import Mocha from 'mocha';
import { timeFiles, timingLines } from './file-clock.js';

const { EVENT_TEST_FAIL, EVENT_RUN_END } = Mocha.Runner.constants;

class FileTimings extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const took = timeFiles(runner);
    const failed: string[] = [];
    runner.on(EVENT_TEST_FAIL, (test, err: Error) => failed.push(`FAIL ${test.fullTitle()}: ${err.message.split('\n')[0]}`));
    runner.on(EVENT_RUN_END, () => {
      for (const line of timingLines(took)) process.stdout.write(`${line}\n`);
      for (const line of failed) process.stdout.write(`${line}\n`);
      process.stdout.write(`${this.stats.passes} passing, ${this.stats.failures} failing, ${this.stats.pending} pending, ${((this.stats.duration ?? 0) / 1000).toFixed(0)} s\n`);
    });
  }
}

export = FileTimings;
