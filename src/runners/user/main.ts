// The `runners/user` executable.
import { runnerMain } from '../kit/index.js';
import { userRunner } from './runner.js';

runnerMain(userRunner());
