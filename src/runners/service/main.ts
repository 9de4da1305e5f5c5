import { runnerMain } from '../kit.js';
import { runService } from './runner.js';

runnerMain(runService);
