// The `runners/exec` executable.
import { runnerMain } from '../kit/index.js';
import { execRunner } from './runner.js';

runnerMain(execRunner);
