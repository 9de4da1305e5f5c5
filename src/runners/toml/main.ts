// The `runners/toml` executable.
import { runnerMain } from '../kit/index.js';
import { tomlRunner } from './runner.js';

runnerMain(tomlRunner());
