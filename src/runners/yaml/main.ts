// The `runners/yaml` executable.
import { runnerMain } from '../kit/index.js';
import { yamlRunner } from './runner.js';

runnerMain(yamlRunner());
