// The `runners/apt_repository` executable.
import { runnerMain } from '../kit/index.js';
import { aptRepositoryRunner } from './runner.js';

runnerMain(aptRepositoryRunner());
