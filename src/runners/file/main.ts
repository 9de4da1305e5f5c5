// The `runners/file` executable.
import { runnerMain } from '../kit.js';
import { fileRunner } from './runner.js';

runnerMain(fileRunner());
