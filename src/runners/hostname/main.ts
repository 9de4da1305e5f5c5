// The `runners/hostname` executable.
import { runnerMain } from '../kit/index.js';
import { hostnameRunner } from './runner.js';

runnerMain(hostnameRunner());
