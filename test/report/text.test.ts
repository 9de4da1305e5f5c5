import { expect } from 'chai';
import { notificationLines, resourceLines, summaryLine, type TextView } from '../../src/report/text.js';
import type { ResourceReport, RunReport } from '../../src/report/types.js';

const view = (over: Partial<TextView> = {}): TextView => ({ verbosity: 0, diffs: true, color: false, noop: false, ...over });
const resource = (over: Partial<ResourceReport> = {}): ResourceReport => ({
  ref: 'file:/etc/motd',
  status: 'changed',
  message: 'changed content',
  duration_ms: 12,
  log: ['a log line'],
  diff: '--- /etc/motd\tcurrent\n+++ /etc/motd\tdesired\n@@ -1 +1 @@\n--- old rule\n+new',
  where: 'a.hcl:1',
  ...over,
});

describe('the text report #once', () => {
  it('puts a diff under a changed resource, without its log until -v', () => {
    expect(resourceLines(resource(), view())).to.deep.equal([
      'changed   file:/etc/motd  changed content  (0.01s)',
      '          --- /etc/motd\tcurrent',
      '          +++ /etc/motd\tdesired',
      '          @@ -1 +1 @@',
      '          --- old rule',
      '          +new',
    ]);
    expect(resourceLines(resource(), view({ diffs: false }))).to.deep.equal(['changed   file:/etc/motd  changed content  (0.01s)']);
    expect(resourceLines(resource(), view({ verbosity: 1, diffs: false }))).to.deep.equal([
      'changed   file:/etc/motd  changed content  (0.01s)',
      '          | a log line',
    ]);
    expect(resourceLines(resource(), view({ noop: true, diffs: false }))[0]).to.match(/^noop {6}file/);
  });

  it('colours a diff as git does: file names only before the first hunk', () => {
    const out = resourceLines(resource(), view({ color: true }));
    expect(out[1]).to.equal('          \x1b[1m--- /etc/motd\tcurrent\x1b[0m');
    expect(out[3]).to.equal('          \x1b[36m@@ -1 +1 @@\x1b[0m');
    expect(out[4]).to.equal('          \x1b[31m--- old rule\x1b[0m', 'a removed line that starts with -- is a removed line');
    expect(out[5]).to.equal('          \x1b[32m+new\x1b[0m');
  });

  it('hides what the verbosity does not ask for', () => {
    const unchanged = resource({ status: 'unchanged', diff: undefined });
    expect(resourceLines(unchanged, view())).to.deep.equal([]);
    expect(resourceLines(unchanged, view({ verbosity: 1 }))).to.have.length(2);
    expect(resourceLines(unchanged, view({ verbosity: 1 }), true), 'told by its notification line').to.deep.equal([]);
    expect(resourceLines(resource(), view({ verbosity: -1 }))).to.deep.equal([]);
    expect(resourceLines(resource({ status: 'failed' }), view({ verbosity: -1 }))).to.deep.equal([
      'failed    file:/etc/motd (a.hcl:1)  changed content  (0.01s)',
      '          | a log line',
    ]);
    const sent = { from: ['a:b'], to: 'c:d', signal: 'refresh', status: 'sent' as const, message: 'ok', duration_ms: 0, log: [] };
    expect(notificationLines(sent, view({ verbosity: -1 }))).to.deep.equal([]);
    expect(notificationLines(sent, view())).to.deep.equal(['notified  c:d <- refresh from a:b  ok  (0.00s)']);
  });

  it('a failure names where the resource is declared, and its message once (not again as the log\'s error: line)', () => {
    const failed = resource({ status: 'failed', message: 'unknown user "app"', log: ['getent passwd app', 'error: unknown user "app"'], diff: undefined });
    expect(resourceLines(failed, view())).to.deep.equal(['failed    file:/etc/motd (a.hcl:1)  unknown user "app"  (0.01s)', '          | getent passwd app']);
  });

  it('a failed notification tells its message once (not again as the log\'s error: line)', () => {
    const failed = { from: ['a:b'], to: 'c:d', signal: 'refresh', status: 'failed' as const, message: 'exit 2: bad', duration_ms: 1, log: ['stderr: bad', 'error: exit 2: bad'] };
    expect(notificationLines(failed, view())).to.deep.equal(['failed    c:d <- refresh from a:b  exit 2: bad  (0.00s)', '          | stderr: bad']);
  });

  it('sums up the whole run, with the resources tags left out', () => {
    const summary = { resources: 2, changed: 1, unchanged: 1, failed: 0, skipped: 0, excluded: 3, notifications_sent: 0, notifications_noop: 1, notifications_failed: 0, notifications_skipped: 0, duration_ms: 1234 };
    expect(summaryLine({ noop: true, summary } as RunReport)).to.equal(
      'noop: 2 resources (3 left out by tags), 1 would change, 1 unchanged, 0 failed, 0 skipped; 1 notification would be sent; 1.23s',
    );
  });
});
