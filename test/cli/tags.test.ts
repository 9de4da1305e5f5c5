// Choosing what to apply: `tags` on resources, --tags and --skip-tags, as Puppet selects.
import { expect } from 'chai';
import { json, tree } from '../support/state-tree.js';

const TREE = {
  'a.hcl': `pkg "nginx" {
  tags = ["web", "tls"]
}
file "/etc/motd" {
  after = ["pkg:nginx"]
}
service "nginx" {
  tags = "web"
  after = ["file:/etc/motd"]
}
pkg "postgresql" {
  tags = ["db"]
  changed = true
  notify = ["service:nginx:reload"]
}
`,
};

describe('govern run --tags', () => {
  it('applies only resources with one of the tags, in their order; a dependency outside is not applied', async () => {
    const t = tree(TREE);
    const r = await t.run(['--tags', 'web', '--jobs', '1']);
    expect(r.code).to.equal(0);
    expect(t.calls()).to.deep.equal(['pkg:nginx', 'service:nginx']);
    expect(r.stdout).to.match(/^2 resources \(2 left out by tags\), 0 changed, 2 unchanged/m);
  });

  it('tags each resource with its runner name and its RREF too; commas and repetition add tags', async () => {
    const t = tree(TREE);
    await t.run(['--tags', 'file,db', '--tags', 'service:nginx', '--jobs', '1']);
    expect(t.calls()).to.deep.equal(['file:/etc/motd', 'pkg:postgresql', 'service:nginx', 'service:nginx!reload']);
  });

  it('--skip-tags leaves out what has one of its tags, also among what --tags selected', async () => {
    const t = tree(TREE);
    await t.run(['--skip-tags', 'web', '--jobs', '1']);
    expect(t.calls()).to.deep.equal(['file:/etc/motd', 'pkg:postgresql']);
    const both = tree(TREE);
    await both.run(['--tags', 'web', '--skip-tags', 'tls', '--jobs', '1']);
    expect(both.calls()).to.deep.equal(['service:nginx']);
  });

  it('reports a notification to a resource left out as skipped, and a failure still skips what depends on it', async () => {
    const t = tree({ ...TREE, 'b.hcl': 'exec "broken" {\n  fail = true\n  tags = ["db"]\n  before = ["file:/var/db"]\n}\nfile "/var/db" {}\nexec "migrate" {\n  tags = ["db"]\n  after = ["file:/var/db"]\n}\n' });
    const r = await t.run(['--tags', 'db', '--jobs', '1']);
    expect(r.stdout).to.contain('skipped   service:nginx <- reload from pkg:postgresql  not sent: service:nginx is not selected');
    expect(r.stdout).to.contain('skipped   exec:migrate  skipped: depends on exec:broken, which failed');
    expect(t.calls()).to.deep.equal(['pkg:postgresql', 'exec:broken']);
    expect(json((await t.run(['--json', '--tags', 'db'])).stdout).summary).to.include({ resources: 3, excluded: 4, failed: 1, skipped: 1 });
  });

  it('refuses tags that are not a list of tags, and warns of a tag no resource has', async () => {
    const bad = tree({ 'a.hcl': 'pkg "a" {\n  tags = ["web server"]\n}\n' });
    const r = await bad.run();
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/a\.hcl:2: pkg:a: tags must be a list of tags such as \["web", "tls"\]/);
    const t = tree(TREE);
    const typo = await t.run(['--tags', 'wbe']);
    expect(typo.stderr).to.contain('govern: no resource has the tag "wbe" (did you mean "web"?)');
    expect(t.calls()).to.deep.equal([]);
  });

  it('a --tags that selects nothing is an error (exit 1), so a typo cannot pass for a run that enforced nothing', async () => {
    const t = tree(TREE);
    const typo = await t.run(['--tags', 'wbe']);
    expect(typo.code).to.equal(1);
    expect(typo.stderr).to.contain('govern: --tags wbe selects no resource of the tree');
    const some = await t.run(['--tags', 'web,wbe']);
    expect(some.code).to.not.equal(1);
    expect(some.stderr).to.contain('govern: no resource has the tag "wbe" (did you mean "web"?)');
  });
});
