// The `runners/ini` executable.
import { runnerMain } from '../kit/index.js';
import { iniRunner } from './runner.js';

runnerMain(iniRunner());
