// The suite's reporter (.mocharc.js): mocha's spec reporter, and before its summary the slowest test
// files with their wall and CPU seconds (file-clock.ts), so that every run, CI's too, shows where
// the time went. The full list: the file-timings reporter.
import Mocha from 'mocha';
import { timeFiles, timingLines } from './file-clock.js';

const SHOWN = 15;

class SpecTimings extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const took = timeFiles(runner);
    // Before the spec reporter's summary, so that the run still ends with its passing/failing lines.
    runner.prependOnceListener(Mocha.Runner.constants.EVENT_RUN_END, () => {
      if (took.size < 2) return;
      process.stdout.write(`\n  slowest files (wall s, CPU s with children):\n`);
      for (const line of timingLines(took, SHOWN)) process.stdout.write(`  ${line}\n`);
    });
  }
}

export = SpecTimings;
