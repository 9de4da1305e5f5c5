// The `runners/git` executable.
import { runnerMain } from '../kit.js';
import { gitRunner } from './runner.js';

runnerMain(gitRunner());
