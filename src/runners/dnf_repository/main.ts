// The `runners/dnf_repository` executable.
import { runnerMain } from '../kit/index.js';
import { dnfRepositoryRunner } from './runner.js';

runnerMain(dnfRepositoryRunner());
