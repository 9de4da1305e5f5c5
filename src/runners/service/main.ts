// The `runners/service` executable.
import { runnerMain } from '../kit.js';
import { serviceRunner } from './runner.js';

runnerMain(serviceRunner());
