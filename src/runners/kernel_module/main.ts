// The `runners/kernel_module` executable.
import { runnerMain } from '../kit/index.js';
import { kernelModuleRunner } from './runner.js';

runnerMain(kernelModuleRunner());
