// The `runners/pkg` executable.
import { runnerMain } from '../kit.js';
import { pkgRunner } from './runner.js';

runnerMain(pkgRunner);
