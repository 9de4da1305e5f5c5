// One tree a real host needs, through `govern run` and the real runners, in both runner modes: a
// group, a user in it with a home, a file the user owns and a line in that file. The tree is written
// in the reverse of the order it must be applied in: only the runners' implicit edges (user after
// its group, file after its owner and group, line after its file) put it right, and `govern graph`
// shows them. Then the same tree with everything absent is removed in the reverse order.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';
import { entry, removeAccounts } from './user/support.js';
import { hostExclusive } from '../support/host-lock.js';

const NAME = 'govtest17-host';

function tree(dir: string, ensure: 'present' | 'absent'): string {
  const conf = `${dir}/app.conf`;
  const present = ensure === 'present';
  return (
    `line "swappiness" {\n  path = "${conf}"\n  line = "vm.swappiness = 10"\n  match = "^\\\\s*vm\\\\.swappiness\\\\s*="\n  ensure = "${ensure}"\n}\n` +
    (present
      ? `file "${conf}" {\n  ensure = "present"\n  owner = "${NAME}"\n  group = "${NAME}"\n  mode = "0640"\n}\n`
      : `file "${conf}" {\n  ensure = "absent"\n  owner = "${NAME}"\n  group = "${NAME}"\n}\n`) +
    (present
      ? `user "${NAME}" {\n  group = "${NAME}"\n  home = "/home/${NAME}"\n  managehome = true\n  shell = "/bin/sh"\n}\n`
      : `user "${NAME}" {\n  ensure = "absent"\n  managehome = true\n  group = "${NAME}"\n}\n`) +
    `group "${NAME}" {\n  ensure = "${ensure}"\n}\n`
  );
}

describe('a host tree: group, user with a home, a file the user owns, a line in it', function () {
  hostExclusive();
  this.timeout(180_000);
  afterEach(() => removeAccounts([NAME], [NAME]));

  for (const mode of ['persistent', 'oneshot']) {
    it(`is applied in the order the implicit edges give, then removed in reverse (${mode} runners)`, async () => {
      await removeAccounts([NAME], [NAME]);
      const dir = tempDir('govtest17-tree-');
      const states = path.join(dir, 'states', 'host.hcl');
      const conf = `${dir}/app.conf`;
      const run = async (ensure: 'present' | 'absent') => {
        writeFile(states, tree(dir, ensure));
        const r = await govern(['run', states, '--json', '--runner-mode', mode]);
        return { code: r.code, stderr: r.stderr, report: JSON.parse(r.stdout) as { resources: { ref: string; status: string; message: string }[]; summary: Record<string, number> } };
      };

      writeFile(states, tree(dir, 'present'));
      const graph = await govern(['graph', states]);
      expect(graph.code, graph.stderr).to.equal(0);
      for (const edge of [
        `"group:${NAME}" -> "user:${NAME}" [label="autorequire"]`,
        `"user:${NAME}" -> "file:${conf}" [label="autorequire"]`,
        `"group:${NAME}" -> "file:${conf}" [label="autorequire"]`,
        `"file:${conf}" -> "line:swappiness" [label="autorequire"]`,
      ]) {
        expect(graph.stdout).to.contain(edge);
      }
      const order = (text: string) => [...text.matchAll(/\[label="(\d+)\. ([^"]+)"\]/g)].sort((a, b) => Number(a[1]) - Number(b[1])).map((m) => m[2]);
      expect(order(graph.stdout)).to.deep.equal([`group:${NAME}`, `user:${NAME}`, `file:${conf}`, 'line:swappiness']);

      const first = await run('present');
      expect(first.code, first.stderr).to.equal(0);
      expect(first.report.resources.map((r) => [r.ref, r.status])).to.deep.equal([
        [`group:${NAME}`, 'changed'],
        [`user:${NAME}`, 'changed'],
        [`file:${conf}`, 'changed'],
        ['line:swappiness', 'changed'],
      ]);
      const user = await entry('passwd', NAME);
      const group = await entry('group', NAME);
      expect(user?.[3], 'the primary group').to.equal(group?.[2]);
      expect(fs.statSync(`/home/${NAME}`).uid).to.equal(Number(user?.[2]));
      const st = fs.statSync(conf);
      expect([st.uid, st.gid, st.mode & 0o7777]).to.deep.equal([Number(user?.[2]), Number(group?.[2]), 0o640]);
      // The file resource manages who owns the file, the line what is in it.
      expect(fs.readFileSync(conf, 'utf8')).to.equal('vm.swappiness = 10\n');

      const second = await run('present');
      expect(second.code, second.stderr).to.equal(0);
      expect(second.report.summary).to.include({ changed: 0, unchanged: 4 });

      writeFile(states, tree(dir, 'absent'));
      const absentGraph = (await govern(['graph', states])).stdout;
      expect(absentGraph).to.contain(`"file:${conf}" -> "user:${NAME}" [label="autorequire"]`);
      expect(absentGraph).to.contain(`"user:${NAME}" -> "group:${NAME}" [label="autorequire"]`);
      const reversed = order(absentGraph);
      expect(reversed.indexOf(`file:${conf}`), 'the file goes before its owner').to.be.lessThan(reversed.indexOf(`user:${NAME}`));
      expect(reversed.indexOf(`user:${NAME}`), 'the user goes before its group').to.be.lessThan(reversed.indexOf(`group:${NAME}`));
      const removed = await run('absent');
      expect(removed.code, removed.stderr).to.equal(0);
      expect(await entry('passwd', NAME)).to.equal(undefined);
      expect(await entry('group', NAME)).to.equal(undefined);
      expect(fs.existsSync(conf)).to.equal(false);
      expect(fs.existsSync(`/home/${NAME}`)).to.equal(false);
      const again = await run('absent');
      expect(again.code, again.stderr).to.equal(0);
      expect(again.report.summary).to.include({ changed: 0, failed: 0 });
    });
  }
});
