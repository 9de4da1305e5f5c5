// The `runners/json` executable.
import { runnerMain } from '../kit/index.js';
import { jsonRunner } from './runner.js';

runnerMain(jsonRunner());
