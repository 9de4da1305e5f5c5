// The `runners/cron` executable.
import { runnerMain } from '../kit/index.js';
import { cronRunner } from './runner.js';

runnerMain(cronRunner());
