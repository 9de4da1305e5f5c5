// The `runners/line` executable.
import { runnerMain } from '../kit/index.js';
import { lineRunner } from './runner.js';

runnerMain(lineRunner());
