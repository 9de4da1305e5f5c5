// The `runners/archive` executable.
import { runnerMain } from '../kit/index.js';
import { archiveRunner } from './runner.js';

runnerMain(archiveRunner());
