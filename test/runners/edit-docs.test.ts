// The first example of docs/ini.md, docs/block.md, docs/json.md, docs/yaml.md and docs/toml.md, as written, through `govern run`: its paths
// moved under a temporary directory and its `notify` lines left out (the services are not in the
// tree), on files like the ones it names; sshd itself validates the sshd_config block. And bad
// resources of both refused at planning, every problem at its line.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { RunReport } from '../../src/report/types.js';
import { govern, ROOT } from '../support/cli.js';
import { tempDir, writeFile } from '../support/tmp.js';

function example(doc: string, root: string): string {
  const text = fs.readFileSync(path.join(ROOT, 'docs', doc), 'utf8');
  const hcl = /```hcl\n([\s\S]*?)\n```\n/.exec(text)![1];
  return `${hcl.replace(/"\/etc\//g, `"${root}/etc/`).replace(/^\s*notify\s*=.*\n/gm, '')}\n`;
}

async function run(states: string): Promise<{ code: number; report: RunReport; stderr: string }> {
  const r = await govern(['run', states, '--json']);
  return { code: r.code ?? -1, report: JSON.parse(r.stdout) as RunReport, stderr: r.stderr };
}

describe('the edit runners\' docs examples, through govern run', function () {
  this.timeout(120_000);

  it('docs/ini.md: php.ini\'s memory_limit set, dnf.conf\'s key removed, a key before any section', async () => {
    const root = tempDir('govern-ini-doc-');
    const php = writeFile(path.join(root, 'etc/php/8.2/fpm/php.ini'), '[PHP]\n; Maximum amount of memory a script may consume\n; https://php.net/memory-limit\nmemory_limit = 128M\n');
    const dnf = writeFile(path.join(root, 'etc/dnf/dnf.conf'), '[main]\ngpgcheck=1\nmetadata_timer_sync=0\n');
    const env = writeFile(path.join(root, 'etc/app/app.env'), 'NAME=app\n');
    const states = writeFile(path.join(root, 'states', 'ini.hcl'), example('ini.md', root));
    const first = await run(path.dirname(states));
    expect(first.code, first.stderr).to.equal(0);
    expect(fs.readFileSync(php, 'utf8')).to.equal('[PHP]\n; Maximum amount of memory a script may consume\n; https://php.net/memory-limit\nmemory_limit = 256M\n');
    expect(fs.readFileSync(dnf, 'utf8')).to.equal('[main]\ngpgcheck=1\n');
    expect(fs.readFileSync(env, 'utf8')).to.equal('NAME=app\nUMASK=027\n');
    const second = await run(path.dirname(states));
    expect(second.report.summary).to.include({ changed: 0, failed: 0 });
  });

  it('docs/block.md: the sshd_config block validated by sshd, the profile\'s block first, the hosts block removed', async () => {
    const root = tempDir('govern-block-doc-');
    const sshd = writeFile(path.join(root, 'etc/ssh/sshd_config'), 'Port 2222\nUsePAM yes\nMatch User backup\n  ForceCommand /bin/false\n');
    const profile = writeFile(path.join(root, 'etc/profile'), 'PATH=/usr/bin:/bin\n');
    const hosts = writeFile(path.join(root, 'etc/hosts'), '127.0.0.1 localhost\n# BEGIN govern old mirrors\n10.0.0.9 mirror\n# END govern old mirrors\n');
    const states = writeFile(path.join(root, 'states', 'block.hcl'), example('block.md', root));
    const first = await run(path.dirname(states));
    expect(first.code, first.stderr).to.equal(0);
    expect(fs.readFileSync(sshd, 'utf8')).to.equal(
      'Port 2222\nUsePAM yes\n# BEGIN govern sshd hardening\nPermitRootLogin no\nPasswordAuthentication no\n# END govern sshd hardening\nMatch User backup\n  ForceCommand /bin/false\n',
    );
    expect(fs.readFileSync(profile, 'utf8')).to.equal('# BEGIN govern proxy\nexport http_proxy=http://proxy:3128\n# END govern proxy\nPATH=/usr/bin:/bin\n');
    expect(fs.readFileSync(hosts, 'utf8')).to.equal('127.0.0.1 localhost\n');
    const second = await run(path.dirname(states));
    expect(second.report.summary).to.include({ changed: 0, failed: 0 });
  });

  it('docs/json.md: daemon.json\'s nested key added, a number set, a key removed, the rest byte for byte', async () => {
    const root = tempDir('govern-json-doc-');
    const docker = writeFile(path.join(root, 'etc/docker/daemon.json'), '{\n  "log-driver": "json-file",\n  "log-opts": {\n    "max-file": "3"\n  }\n}\n');
    const app = writeFile(path.join(root, 'etc/app/config.json'), '{\n  "debug": true,\n  "server": {\n    "port": 80\n  }\n}\n');
    const states = writeFile(path.join(root, 'states', 'json.hcl'), example('json.md', root));
    const first = await run(path.dirname(states));
    expect(first.code, first.stderr).to.equal(0);
    expect(fs.readFileSync(docker, 'utf8')).to.equal('{\n  "log-driver": "json-file",\n  "log-opts": {\n    "max-file": "3",\n    "max-size": "10m"\n  }\n}\n');
    expect(fs.readFileSync(app, 'utf8')).to.equal('{\n  "server": {\n    "port": 8080\n  }\n}\n');
    const second = await run(path.dirname(states));
    expect(second.report.summary).to.include({ changed: 0, failed: 0 });
  });

  it('docs/yaml.md: a value replaced and a map made, comments kept', async () => {
    const root = tempDir('govern-yaml-doc-');
    const config = writeFile(path.join(root, 'etc/app/config.yaml'), '# app\nserver:\n  port: 80  # public\n  host: 0.0.0.0\nlevel: info\n');
    const states = writeFile(path.join(root, 'states', 'yaml.hcl'), example('yaml.md', root));
    const first = await run(path.dirname(states));
    expect(first.code, first.stderr).to.equal(0);
    expect(fs.readFileSync(config, 'utf8')).to.equal(`# app\nserver:\n  port: 8080  # public\n  host: 0.0.0.0\n  tls:\n    cert: ${root}/etc/ssl/app.pem\nlevel: info\n`);
    const second = await run(path.dirname(states));
    expect(second.report.summary).to.include({ changed: 0, failed: 0 });
  });

  it('docs/toml.md: containerd\'s SystemdCgroup under a quoted dotted table, gitlab-runner\'s concurrent, comments kept', async () => {
    const root = tempDir('govern-toml-doc-');
    const containerd = writeFile(
      path.join(root, 'etc/containerd/config.toml'),
      'version = 2\n\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]\n  # the kubelet wants systemd\n  SystemdCgroup = false\n',
    );
    const runner = writeFile(path.join(root, 'etc/gitlab-runner/config.toml'), 'concurrent = 1  # jobs at once\ncheck_interval = 0\n\n[[runners]]\n  name = "host"\n');
    const states = writeFile(path.join(root, 'states', 'toml.hcl'), example('toml.md', root));
    const first = await run(path.dirname(states));
    expect(first.code, first.stderr).to.equal(0);
    expect(fs.readFileSync(containerd, 'utf8')).to.equal('version = 2\n\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]\n  # the kubelet wants systemd\n  SystemdCgroup = true\n');
    expect(fs.readFileSync(runner, 'utf8')).to.equal('concurrent = 4  # jobs at once\ncheck_interval = 0\n\n[[runners]]\n  name = "host"\n');
    const second = await run(path.dirname(states));
    expect(second.report.summary).to.include({ changed: 0, failed: 0 });
  });

  it('bad ini and block resources are refused with every problem, at their lines, before anything is applied', async () => {
    const root = tempDir('govern-edit-bad-');
    const conf = writeFile(path.join(root, 'etc', 'x.conf'), 'a\n');
    const file = writeFile(
      path.join(root, 'states', 'bad.hcl'),
      `ini "bad" {\n  path  = "relative"\n  key   = "a=b"\n  value = "x\\ny"\n}\n\nblock "bad" {\n  path          = "${conf}"\n  content       = "x"\n  insert_after  = "("\n  insert_before = "^a"\n}\n\nblock "no content" {\n  path = "${conf}"\n}\n`,
    );
    const r = await govern(['run', path.dirname(file)]);
    expect(r.code).to.equal(1);
    expect(r.stderr.trimEnd().split('\n')).to.deep.equal([
      `govern: ${file}:2: ini:bad: path "relative" is not a clean absolute path other than "/" (no "." or ".." component, no "//", no trailing "/") (it must start with "/")`,
      `govern: ${file}:3: ini:bad: key "a=b" is not a key name (no "=" or line break, not starting with #, ; or [, no space at either end)`,
      `govern: ${file}:4: ini:bad: value "x\\ny" is not one line of text (no line break)`,
      `govern: ${file}:10: block:bad: insert_after "(" is not a regular expression (Unterminated group)`,
      `govern: ${file}:11: block:bad: give only one of insert_after and insert_before, not both`,
      `govern: ${file}:14: block:no content: content is required for ensure = "present"`,
    ]);
    expect(fs.readFileSync(conf, 'utf8')).to.equal('a\n');
  });
});
