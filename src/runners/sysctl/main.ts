// The `runners/sysctl` executable.
import { runnerMain } from '../kit/index.js';
import { sysctlRunner } from './runner.js';

runnerMain(sysctlRunner());
