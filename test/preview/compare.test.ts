// The comparison behind `govern diff`, without a tree: two plans of a host, resource by resource and
// key by key, and the same changes grouped across hosts, as text.
import { expect } from 'chai';
import { compareHost, groupChanges, summaryLine, type ResourceChange } from '../../src/preview/compare.js';
import { formatGroups } from '../../src/preview/diff-text.js';
import { formatHostPreview } from '../../src/preview/plan-text.js';
import { SENSITIVE } from '../../src/shared/sensitive.js';
import { HIDDEN_VALUES, type ResourceView } from '../../src/preview/view.js';

function view(ref: string, attrs: ResourceView['attrs'], more: Partial<ResourceView> = {}): ResourceView {
  return { ref, order: 1, at: 'a.hcl:1', attrs, hidden: [], sensitive: false, tags: [], before: [], after: [], notify: [], subscribe: [], ...more };
}

describe('preview: comparing two plans of a host #once', () => {
  it('names added, removed and changed resources by RREF, sorted, and leaves out the unchanged', () => {
    const before = [view('pkg:nginx', { ensure: 'present' }), view('file:/etc/a', { mode: '0644' }), view('pkg:redis', { ensure: 'present' })];
    const after = [view('pkg:nginx', { ensure: 'present' }), view('file:/etc/a', { mode: '0600' }), view('pkg:vim', { ensure: 'latest' }, { tags: ['tools'] })];
    expect(compareHost(before, after)).to.deep.equal([
      { ref: 'file:/etc/a', change: 'changed', attrs: [{ key: 'mode', old: '0644', new: '0600' }] },
      { ref: 'pkg:redis', change: 'removed', attrs: [] },
      { ref: 'pkg:vim', change: 'added', attrs: [{ key: 'ensure', new: 'latest' }, { key: 'tags', new: ['tools'] }] },
    ]);
  });

  it('compares tags and links as keys, a key set on one side only as absent on the other', () => {
    const changes = compareHost([view('exec:x', { command: 'true' }, { notify: ['service:a'] })], [view('exec:x', { command: 'true', cwd: '/' }, { before: ['pkg:y'] })]);
    expect(changes[0].attrs).to.deep.equal([
      { key: 'before', new: ['pkg:y'] },
      { key: 'cwd', new: '/' },
      { key: 'notify', old: ['service:a'] },
    ]);
  });

  it('gives a multi-line text a unified diff labelled with the sides; a one-line text none', () => {
    const [change] = compareHost([view('file:/f', { contents: 'a\nb\n', owner: 'root' })], [view('file:/f', { contents: 'a\nc\n', owner: 'www' })], ['main', 'HEAD']);
    const contents = change.attrs.find((a) => a.key === 'contents')!;
    expect(contents.diff!.join('')).to.include('file:/f (main)').and.include('file:/f (HEAD)').and.include('-b').and.include('+c');
    expect(change.attrs.find((a) => a.key === 'owner')).to.deep.equal({ key: 'owner', old: 'root', new: 'www' });
  });

  it('sees a change of a hidden value by its own text, shows it only as <sensitive>, and never diffs it', () => {
    const secret = (text: string) => view('file:/s', { contents: SENSITIVE }, { hidden: ['contents'], sensitive: true, [HIDDEN_VALUES]: { contents: text } });
    expect(compareHost([secret('pw=1\nx\n')], [secret('pw=1\nx\n')]), 'the same secret').to.deep.equal([]);
    expect(compareHost([secret('pw=1\nx\n')], [secret('pw=2\nx\n')])).to.deep.equal([{ ref: 'file:/s', change: 'changed', attrs: [{ key: 'contents', old: SENSITIVE, new: SENSITIVE }] }]);
  });

  it('groups identical changes across hosts, most hosts first within an RREF, hosts sorted', () => {
    const mode: ResourceChange = { ref: 'file:/etc/a', change: 'changed', attrs: [{ key: 'mode', old: '0644', new: '0600' }] };
    const other: ResourceChange = { ref: 'file:/etc/a', change: 'changed', attrs: [{ key: 'mode', old: '0644', new: '0640' }] };
    const added: ResourceChange = { ref: 'pkg:vim', change: 'added', attrs: [{ key: 'ensure', new: 'latest' }] };
    const groups = groupChanges(new Map([['web2', [mode]], ['db1', [other, added]], ['web1', [mode]]]));
    expect(groups.map((g) => [g.ref, g.hosts])).to.deep.equal([
      ['file:/etc/a', ['web1', 'web2']],
      ['file:/etc/a', ['db1']],
      ['pkg:vim', ['db1']],
    ]);
    expect(groups.map(summaryLine)).to.deep.equal(['2 hosts: file:/etc/a mode', '1 host: file:/etc/a mode', '1 host: pkg:vim added']);
  });

  it('prints the groups with their hosts and a summary, or that nothing changes', () => {
    expect(formatGroups([], 3)).to.equal('no change on 3 hosts\n');
    const groups = groupChanges(new Map([['web1', [{ ref: 'pkg:vim', change: 'added', attrs: [{ key: 'ensure', new: 'latest' }] }, { ref: 'file:/a', change: 'changed', attrs: [{ key: 'mode', old: '0644' }] }] as ResourceChange[]]]));
    expect(formatGroups(groups, 1)).to.equal(
      'file:/a changed on 1 host: web1\n    mode: "0644" -> (not set)\npkg:vim added on 1 host: web1\n    ensure = "latest"\n\nSummary (1 host planned):\n  1 host: file:/a mode\n  1 host: pkg:vim added\n',
    );
  });
});

describe('preview: a host\'s plan as text #once', () => {
  it('lists each resource in order with its keys as JSON, its module, tags and links', () => {
    const r = view('file:/etc/motd', { contents: 'hi\nthere\n' }, { order: 2, at: 'site.hcl:3', module: 'base', tags: ['motd'], subscribe: ['pkg:a'], skipped: true });
    expect(formatHostPreview({ host: 'web1', facts: 'web1.json', resources: [r] })).to.equal(
      'host web1 (facts: web1.json): 1 resource\n  2. file:/etc/motd (site.hcl:3) [skipped by --tags/--skip-tags]\n       module: base\n       contents = "hi\\nthere\\n"\n       tags: motd\n       subscribe: pkg:a\n',
    );
  });

  it('says planning failed, and how many problems stderr tells, when there are no resources', () => {
    expect(formatHostPreview({ host: 'db1', errors: ['a.hcl:1: bad', 'b.hcl:2: worse'] })).to.equal('host db1: planning failed: 2 problems (on stderr)\n');
  });
});
