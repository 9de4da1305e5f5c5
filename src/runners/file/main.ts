// The `runners/file` executable: one request from argv and the environment.
import { runnerMain } from '../kit.js';
import { runFile } from './runner.js';

runnerMain(runFile);
