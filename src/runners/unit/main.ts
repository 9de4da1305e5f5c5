// The `runners/unit` executable.
import { runnerMain } from '../kit.js';
import { unitRunner } from './runner.js';

runnerMain(unitRunner());
