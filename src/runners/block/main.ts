// The `runners/block` executable.
import { runnerMain } from '../kit/index.js';
import { blockRunner } from './runner.js';

runnerMain(blockRunner());
