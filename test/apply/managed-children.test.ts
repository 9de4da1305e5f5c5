import { expect } from 'chai';
import { managedChildren } from '../../src/apply/managed-children.js';
import { managedChildrenValue, MANAGED_CHILDREN_BYTES } from '../../src/state/runner-call.js';
import type { RunnerDescription } from '../../src/shared/description.js';
import type { Resource } from '../../src/state/resource.js';

const resource = (type: string, name: string, attrs: Resource['attrs'] = {}) => ({ ref: `${type}:${name}`, type, name, attrs }) as unknown as Resource;

const descriptions = { line: { keys: { path: { type: 'path' } } }, exec: { keys: { creates: { type: 'path' }, command: { type: 'string' } } } } as unknown as Record<string, RunnerDescription>;
const describeRunner = (runner: string) => descriptions[runner];

describe('managed children (GOVERN_MANAGED_CHILDREN) #once', () => {
  it('gives each purging resource the entries of its directory that a resource of any runner names, by its name or a path key, at or below', () => {
    const got = managedChildren([
      resource('file', '/srv/a', { purge: true }),
      resource('file', '/srv/a/one'),
      resource('line', 'a line', { path: '/srv/a/deep/er/two' }),
      resource('exec', 'make', { creates: '/srv/a/made/', command: '/srv/a/not-a-path-key' }),
      resource('file', '/srv/a/deep'),
      resource('file', '/srv/ab/not-a-child'),
      resource('service', 'nginx'),
      resource('file', '/srv/a/one/two', { purge: true }),
      resource('file', '/srv/b', { purge: false }),
    ], describeRunner);
    expect([...got]).to.deep.equal([
      ['file:/srv/a', ['deep', 'made', 'one']],
      ['file:/srv/a/one/two', []],
    ]);
  });

  it('refuses a list too long to pass rather than pass part of it', () => {
    const names = Array.from({ length: MANAGED_CHILDREN_BYTES / 100 + 10 }, (_, i) => `${i}`.padStart(100, 'x'));
    expect(() => managedChildrenValue(names, '/big')).to.throw(/more than govern passes/);
  });
});
