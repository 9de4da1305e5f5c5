// The `runners/group` executable.
import { runnerMain } from '../kit/index.js';
import { groupRunner } from './runner.js';

runnerMain(groupRunner());
