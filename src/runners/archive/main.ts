// The `runners/archive` executable.
import { runnerMain } from '../kit.js';
import { archiveRunner } from './runner.js';

runnerMain(archiveRunner());
