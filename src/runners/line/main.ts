// The `runners/line` executable.
import { runnerMain } from '../kit.js';
import { lineRunner } from './runner.js';

runnerMain(lineRunner());
