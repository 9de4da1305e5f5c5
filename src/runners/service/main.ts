// The `runners/service` executable.
import { runnerMain } from '../kit/index.js';
import { serviceRunner } from './runner.js';

runnerMain(serviceRunner());
