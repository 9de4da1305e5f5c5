// The `runners/group` executable.
import { runnerMain } from '../kit.js';
import { groupRunner } from './runner.js';

runnerMain(groupRunner());
