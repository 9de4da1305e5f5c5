// The requests runners leave in the run's directory for its end: only a resource of the run that
// changed, with a signal its runner accepts, is sent one; once per (resource, signal), in apply order.
import { expect } from 'chai';
import path from 'node:path';
import { runEndRequests } from '../../src/apply/run-end.js';
import type { KnownRunner } from '../../src/describe/describe-runner.js';
import type { ResourceGraph } from '../../src/graph/resource-graph.js';
import type { ResourceReport } from '../../src/report/types.js';
import { RUN_END_REQUESTS } from '../../src/shared/protocol.js';
import { tempDir, writeFile } from '../support/tmp.js';

const REFS = ['unit:a.service', 'unit:b.service', 'unit:same.service', 'x:y'];
const plan = { byRef: new Map(REFS.map((ref) => [ref, { ref, type: ref.split(':')[0] }])), order: REFS } as unknown as ResourceGraph;
const report = (ref: string, status: ResourceReport['status']): [string, ResourceReport] => [ref, { ref, status, message: '', duration_ms: 0, log: [], where: 'x.hcl:1' }];
const runners = new Map<string, KnownRunner>([
  ['unit', { executable: '/bin/true', description: { govern_runner: 1, signals: ['refresh'] } as KnownRunner['description'] }],
  ['x', { executable: '/bin/true' }],
]);

describe('run-end requests #once', () => {
  it('sends what a changed resource of the run asked for, with a signal its runner knows; once each, in apply order', () => {
    const runDir = tempDir('govern-run-end-');
    const request = (file: string, text: string) => writeFile(path.join(runDir, RUN_END_REQUESTS, file), text);
    request('1', 'unit:b.service\nrefresh\n');
    request('2', 'unit:a.service\nrefresh\n');
    request('3', 'unit:b.service\nrefresh\n');
    request('unchanged', 'unit:same.service\nrefresh\n');
    request('unknown-resource', 'unit:nowhere.service\nrefresh\n');
    request('unknown-signal', 'unit:a.service\nrestart\n');
    request('undescribed', 'x:y\nanything\n');
    const reports = new Map([report('unit:a.service', 'changed'), report('unit:b.service', 'changed'), report('unit:same.service', 'unchanged'), report('x:y', 'changed')]);
    expect(runEndRequests(runDir, plan, reports, runners)).to.deep.equal([
      { from: ['unit:a.service'], to: 'unit:a.service', signal: 'refresh' },
      { from: ['unit:b.service'], to: 'unit:b.service', signal: 'refresh' },
      { from: ['x:y'], to: 'x:y', signal: 'anything' },
    ]);
  });

  it('none without the directory', () => {
    expect(runEndRequests(tempDir('govern-run-end-'), plan, new Map(), runners)).to.deep.equal([]);
  });
});
