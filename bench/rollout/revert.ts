// The return to the last good commit on examples/web (docs/rollout.md): the time from a failed
// health check to the good commit applied again, beyond the runs themselves. Each round, paired:
//   revert:   a marked tree (govern pull --revert-on-failure) at good commit G; a bad commit B pulled;
//             one `govern run`: B's run, its failed check, the return, G's run.
//   baseline: an unmarked tree in the same state; B pulled, `govern run` (fails), then a fixing
//             commit with G's content pulled and run: the same two runs, without the return.
// The ratio revert / baseline, and the difference (the return's own cost), per round; the median.
// It installs lighttpd (examples/web does) and leaves it: run it on a machine meant for that.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const REPO = path.resolve(__dirname, '..', '..', '..');
const GOVERN = path.join(REPO, 'bin', 'govern');
const WEB = fs.readFileSync(path.join(REPO, 'examples', 'web', 'web.hcl'), 'utf8');
const HEALTH = '\nhealth "web answers" {\n  url     = "http://127.0.0.1/index.html"\n  status  = 200\n  retries = 10\n}\n';
/** A document root without the page: lighttpd answers 404, and the check fails. */
const BAD = WEB.replace('server.document-root = \\"/srv/webapp\\"', 'server.document-root = \\"/srv/webapp-missing\\"');

const sh = (cmd: string, args: string[], cwd?: string) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

function governTimed(args: string[]): { ms: number; code: number; output: string } {
  const start = process.hrtime.bigint();
  let code = 0;
  let output = '';
  try {
    execFileSync(GOVERN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const failure = e as { status?: number; stdout?: Buffer; stderr?: Buffer };
    code = failure.status ?? 1;
    output = `${failure.stdout?.toString() ?? ''}${failure.stderr?.toString() ?? ''}`;
  }
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, code, output };
}

class Lab {
  readonly work: string;
  readonly bare: string;
  readonly varDir: string;
  readonly dir: string;
  constructor(root: string, name: string) {
    this.work = path.join(root, `${name}-work`);
    this.bare = path.join(root, `${name}.git`);
    this.varDir = path.join(root, `${name}-var`);
    this.dir = path.join(root, `${name}-states`);
    sh('git', ['init', '--quiet', '--bare', '--initial-branch=main', this.bare]);
    sh('git', ['init', '--quiet', '--initial-branch=main', this.work]);
    for (const [k, v] of [['user.name', 'Bench'], ['user.email', 'bench@example.org'], ['commit.gpgsign', 'false']]) sh('git', ['-C', this.work, 'config', k, v]);
  }
  commit(content: string): void {
    fs.writeFileSync(path.join(this.work, 'web.hcl'), content + HEALTH);
    sh('git', ['-C', this.work, 'add', '--all']);
    sh('git', ['-C', this.work, 'commit', '--quiet', '--allow-empty', '-m', 'change']);
    sh('git', ['-C', this.work, 'push', '--quiet', '--force', this.bare, 'HEAD:refs/heads/main']);
  }
  pull(marked: boolean): void {
    sh(GOVERN, ['pull', '--var-dir', this.varDir, ...(marked ? ['--revert-on-failure'] : []), this.bare, this.dir]);
  }
  run(): { ms: number; code: number; output: string } {
    return governTimed(['run', '-q', '--var-dir', this.varDir, this.dir]);
  }
}

function main(): void {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
  const rounds = Number(values.rounds);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'govern-bench-revert-'));
  try {
    const marked = new Lab(root, 'marked');
    const plain = new Lab(root, 'plain');
    for (const lab of [marked, plain]) {
      lab.commit(WEB);
      lab.pull(lab === marked);
      if (lab.run().code !== 0) throw new Error(`the good commit of examples/web does not run cleanly here (${lab.dir})`);
    }
    const rows: { revert: number; baseline: number }[] = [];
    for (let i = 0; i < rounds; i++) {
      // Interleaved, and the order swapped each round: neither side always runs on a warmer machine.
      const sides = i % 2 === 0 ? ['revert', 'baseline'] : ['baseline', 'revert'];
      const row = { revert: 0, baseline: 0 };
      for (const side of sides) {
        if (side === 'revert') {
          marked.commit(BAD);
          marked.pull(true);
          const r = marked.run();
          if (r.code === 0) throw new Error('the bad commit did not fail');
          row.revert = r.ms;
          marked.commit(WEB); // a fixing commit, so the next round's bad one is new
          marked.pull(true);
          marked.run();
        } else {
          plain.commit(BAD);
          plain.pull(false);
          const failed = plain.run();
          plain.commit(WEB);
          plain.pull(false);
          const good = plain.run();
          if (failed.code === 0 || good.code !== 0) throw new Error(`the baseline runs did not fail and succeed (exit ${failed.code}, then ${good.code}):\n${good.output}`);
          row.baseline = failed.ms + good.ms;
        }
      }
      rows.push(row);
      console.log(`round ${i + 1}: revert ${(row.revert / 1000).toFixed(2)}s, baseline ${(row.baseline / 1000).toFixed(2)}s, ratio ${(row.revert / row.baseline).toFixed(3)}, return's own ${((row.revert - row.baseline) / 1000).toFixed(2)}s`);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(`median ratio ${median(rows.map((r) => r.revert / r.baseline)).toFixed(3)}, median return's own ${(median(rows.map((r) => r.revert - r.baseline)) / 1000).toFixed(2)}s (target: under 5s)`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main();
