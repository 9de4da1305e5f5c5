// The pieces of --base and --make-base that read text: the mirror from apt's sources, and the
// libraries ldd names for Node.js (the real ldd's output, and the host's own sources).
import { expect } from 'chai';
import fs from 'node:fs';
import { runCommand } from '../../src/shared/process.js';
import { lddPaths } from '../../src/test-run/base-root.js';
import { mirrorFromSources } from '../../src/test-run/make-base.js';

describe('govern test --base: sources and libraries #once', () => {
  it("takes the mirror of the suite from apt's deb822 and one-line sources, never the security archive", () => {
    const deb822 = 'Types: deb\nURIs: http://security.example/debian-security\nSuites: bookworm-security\n\nTypes: deb deb-src\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\nComponents: main\n';
    expect(mirrorFromSources([deb822], 'bookworm')).to.equal('http://mirror.example/debian');
    expect(mirrorFromSources(['deb [arch=amd64] http://old.example/debian bullseye main\n'], 'bullseye')).to.equal('http://old.example/debian');
    // Another suite than the host's: a Debian archive of the host's sources, else Debian's own.
    expect(mirrorFromSources([deb822], 'trixie')).to.equal('http://mirror.example/debian');
    expect(mirrorFromSources(['deb http://ppa.example/ubuntu jammy main\n'], 'bookworm')).to.equal('http://deb.debian.org/debian');
  });

  it("reads the paths of ldd's output for this Node.js, each an existing file", async () => {
    const r = await runCommand('ldd', [process.execPath]);
    expect(r.code).to.equal(0);
    const paths = lddPaths(r.stdout);
    expect(paths.some((p) => /\/libc\.so\.6$/.test(p)), r.stdout).to.equal(true);
    expect(paths.some((p) => /ld-linux/.test(p)), r.stdout).to.equal(true);
    for (const p of paths) expect(fs.existsSync(p), p).to.equal(true);
    expect(lddPaths('\tlinux-vdso.so.1 (0x00007ffd)\n\tnot a library\n')).to.deep.equal([]);
  });
});
