// The `runners/mount` executable.
import { runnerMain } from '../kit.js';
import { mountRunner } from './runner.js';

runnerMain(mountRunner());
