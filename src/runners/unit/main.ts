// The `runners/unit` executable.
import { runnerMain } from '../kit/index.js';
import { unitRunner } from './runner.js';

runnerMain(unitRunner());
