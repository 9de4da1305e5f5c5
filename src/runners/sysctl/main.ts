// The `runners/sysctl` executable.
import { runnerMain } from '../kit.js';
import { sysctlRunner } from './runner.js';

runnerMain(sysctlRunner());
