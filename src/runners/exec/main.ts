// The `runners/exec` executable.
import { runnerMain } from '../kit.js';
import { execRunner } from './runner.js';

runnerMain(execRunner);
