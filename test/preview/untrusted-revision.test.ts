import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { govern } from '../support/cli.js';
import { repository, snapshots } from '../support/preview.js';

/** A runner a tree ships in runners.d: describes itself with no keys, and does nothing else. */
const TREE_RUNNER = '#!/bin/sh\n[ "${GOVERN_DESCRIBE:-}" = 1 ] && { echo \'{"keys": {"word": {"type": "string"}}}\'; exit 0; }\necho message=ok\n';

describe('govern diff of a revision nobody reviewed yet', () => {
  const hosts = () => snapshots({ web1: { role: 'web' } });

  it('runs as root with a runners.d: the revision is unpacked with no group or other write bit', async function () {
    if (os.userInfo().uid !== 0) this.skip(); // the refusal of a group-writable runner matters as root
    const repo = repository();
    fs.mkdirSync(path.join(repo.dir, 'states/runners.d'), { recursive: true });
    fs.writeFileSync(path.join(repo.dir, 'states/runners.d/greet'), TREE_RUNNER, { mode: 0o755 });
    const a = repo.commit({ 'states/a.hcl': 'greet "x" {\n  word = "a"\n}\n' }, 'a');
    const b = repo.commit({ 'states/a.hcl': 'greet "x" {\n  word = "b"\n}\n' }, 'b');
    const r = await govern(['diff', '--no-cache', '--facts', hosts(), a, b, 'states'], { cwd: repo.dir });
    expect(r.stderr).to.equal('');
    expect(r.stdout).to.contain('greet:x changed on 1 host: web1\n    word: "a" -> "b"\n');
    expect(r.code).to.equal(2);
  });
});
