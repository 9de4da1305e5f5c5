// The `runners/pkg` executable.
import { runnerMain } from '../kit/index.js';
import { pkgRunner } from './runner.js';

runnerMain(pkgRunner);
