import { runnerMain } from '../kit.js';
import { runExec } from './runner.js';

runnerMain(runExec);
