// The `runners/git` executable.
import { runnerMain } from '../kit/index.js';
import { gitRunner } from './runner.js';

runnerMain(gitRunner());
