// The `runners/user` executable.
import { runnerMain } from '../kit.js';
import { userRunner } from './runner.js';

runnerMain(userRunner());
