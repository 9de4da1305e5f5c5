// The `runners/dnf_repository` executable.
import { runnerMain } from '../kit.js';
import { dnfRepositoryRunner } from './runner.js';

runnerMain(dnfRepositoryRunner());
