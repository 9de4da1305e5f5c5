// The `runners/authorized_key` executable.
import { runnerMain } from '../kit/index.js';
import { authorizedKeyRunner } from './runner.js';

runnerMain(authorizedKeyRunner());
