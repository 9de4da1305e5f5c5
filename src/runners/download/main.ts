// The `runners/download` executable.
import { runnerMain } from '../kit/index.js';
import { downloadRunner } from './runner.js';

runnerMain(downloadRunner());
