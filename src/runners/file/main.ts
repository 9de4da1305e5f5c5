// The `runners/file` executable.
import { runnerMain } from '../kit/index.js';
import { fileRunner } from './runner.js';

runnerMain(fileRunner());
