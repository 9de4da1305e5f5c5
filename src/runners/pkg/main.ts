import { runnerMain } from '../kit.js';
import { runPkg } from './runner.js';

runnerMain(runPkg);
