// The `runners/cron` executable.
import { runnerMain } from '../kit.js';
import { cronRunner } from './runner.js';

runnerMain(cronRunner());
