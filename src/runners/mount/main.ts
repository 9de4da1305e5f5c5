// The `runners/mount` executable.
import { runnerMain } from '../kit/index.js';
import { mountRunner } from './runner.js';

runnerMain(mountRunner());
