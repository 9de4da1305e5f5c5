// Runs one page's blocks in order (its trees written, its commands run) in a private mount
// namespace: tmpfs over govern's run, var and cache directories and over /tmp (where the page's own
// temporary directory is moved back), and the checkout overlaid so that what a command writes there
// stays in that temporary directory.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Block, transcript } from './doc-blocks';
import { tempDir } from './tmp';

export interface Step {
  block: Block;
  command: string; // as the page shows it (a script's whole text)
  expected?: string; // a transcript's output under the command
  output: string; // stdout and stderr, as printed
  status: number;
  want: number; // the status it must end with
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const PRIVATE = ['/run/govern', '/var/lib/govern', '/var/cache/govern'];

/** The directory a tree's blocks are written to and its commands run in. */
function treeDir(root: string, tmp: string, tree: string): string {
  return tree === 'checkout' ? root : path.join(tmp, 'trees', tree);
}

/** Writes the page's tree blocks and runs its run blocks, all in one namespace, in page order. */
export function runPage(root: string, blocks: Block[], files: Map<Block, string>): { steps: Step[]; tmp: string; log: string } {
  const tmp = tempDir('govern-docs-');
  for (const d of ['blocks', 'out', 'bin', 'home', 'up', 'work', 'trees']) fs.mkdirSync(path.join(tmp, d));
  fs.symlinkSync(path.join(root, 'bin', 'govern'), path.join(tmp, 'bin', 'govern'));
  const lines = [
    'set -u',
    `for d in ${PRIVATE.join(' ')}; do mkdir -p $d && mount -t tmpfs -o mode=0755 tmpfs $d || exit 99; done`,
    `mkdir /run/govern/.docs && mount --bind ${quote(tmp)} /run/govern/.docs || exit 99`,
    `mount -t tmpfs -o mode=1777 tmpfs /tmp && mkdir -p ${quote(tmp)} && mount --move /run/govern/.docs ${quote(tmp)} && rmdir /run/govern/.docs || exit 99`,
    `mount -t overlay overlay -o lowerdir=${quote(root)},upperdir=${quote(tmp)}/up,workdir=${quote(tmp)}/work ${quote(root)} || exit 99`,
    // Where systemd is not init, the tests of the user manager mark it booted (/run/systemd/system)
    // while they run, beside this page under another suite: the page's runs would then ask a
    // system manager that is not there. The page sees the host as it is.
    'if [ "$(cat /proc/1/comm)" != systemd ] && [ -d /run/systemd ]; then mount -t tmpfs -o mode=0755 tmpfs /run/systemd || exit 99; fi',
  ];
  const steps: Step[] = [];
  blocks.forEach((block, n) => {
    const marker = block.marker;
    const src = path.join(tmp, 'blocks', String(n));
    fs.writeFileSync(src, block.text);
    if (marker?.kind === 'tree') {
      const dest = path.join(treeDir(root, tmp, marker.tree), files.get(block)!);
      lines.push(`mkdir -p ${quote(path.dirname(dest))} && cp ${quote(src)} ${quote(dest)} || exit 99`);
    }
    if (marker?.kind === 'check') {
      // A state file on its own: govern graph checks its keys, values and references, applies nothing.
      const dir = path.join(tmp, 'checks', String(n));
      fs.mkdirSync(dir, { recursive: true });
      fs.copyFileSync(src, path.join(dir, 'check.hcl'));
      lines.push(`(cd ${quote(dir)} && exec govern graph .) </dev/null >${quote(tmp)}/out/${n} 2>&1; echo $? >${quote(tmp)}/out/${n}.rc`);
      steps.push({ block, command: 'govern graph . (the block as a state file)', output: String(n), status: -1, want: 0 });
    }
    if (marker?.kind !== 'run') return;
    const dir = treeDir(root, tmp, marker.tree);
    lines.push(`mkdir -p ${quote(dir)}`);
    const shown = transcript(block.text);
    const commands = shown.length ? shown : [{ command: block.text, output: undefined }];
    commands.forEach((c, k) => {
      const id = `${n}.${k}`;
      const script = path.join(tmp, 'blocks', `${id}.sh`);
      fs.writeFileSync(script, c.command.endsWith('\n') ? c.command : `${c.command}\n`);
      lines.push(`(cd ${quote(dir)} && exec bash -e ${quote(script)}) </dev/null >${quote(tmp)}/out/${id} 2>&1; echo $? >${quote(tmp)}/out/${id}.rc`);
      const last = k === commands.length - 1;
      steps.push({ block, command: c.command, expected: c.output, output: id, status: -1, want: last ? marker.exit : 0 });
    });
  });
  fs.writeFileSync(path.join(tmp, 'page.sh'), `${lines.join('\n')}\n`);
  if (process.env.APT_CONFIG) fs.copyFileSync(process.env.APT_CONFIG, path.join(tmp, 'apt.conf'));
  const env: NodeJS.ProcessEnv = {
    PATH: `${path.join(tmp, 'bin')}:${process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin'}`,
    HOME: path.join(tmp, 'home'),
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    NPM_CONFIG_UPDATE_NOTIFIER: 'false', // make demo's npx asks no registry
    TERM: 'dumb',
    GIT_AUTHOR_NAME: 'Docs Test',
    GIT_AUTHOR_EMAIL: 'docs@example.org',
    GIT_COMMITTER_NAME: 'Docs Test',
    GIT_COMMITTER_EMAIL: 'docs@example.org',
    APT_CONFIG: process.env.APT_CONFIG ? path.join(tmp, 'apt.conf') : undefined,
  };
  const r = spawnSync('unshare', ['-m', 'bash', path.join(tmp, 'page.sh')], { env, encoding: 'utf8', timeout: 900_000 });
  for (const step of steps) {
    const out = path.join(tmp, 'out', step.output);
    step.output = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
    step.status = fs.existsSync(`${out}.rc`) ? Number(fs.readFileSync(`${out}.rc`, 'utf8')) : -1;
  }
  return { steps, tmp, log: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

/** What may differ between the page and a run: durations, dates, the temporary directory. */
export function normalise(text: string, tmp: string): string {
  // A page cannot show that a command's output ends without a newline (govern secret show).
  return (text === '' || text.endsWith('\n') ? text : `${text}\n`)
    .split(`${tmp}/trees/`).join('')
    .split(tmp).join('$TMP')
    .replace(/\b\d+\.\d+s\b/g, 'N.NNs')
    .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b/g, 'DATE')
    .replace(/[ \t]+$/gm, '');
}

/** Whether every line of `shown` appears, in order and together, in `printed`. */
export function shows(printed: string, shown: string): boolean {
  const want = shown.replace(/\n$/, '').split('\n');
  const have = printed.split('\n');
  for (let i = 0; i + want.length <= have.length; i++) {
    if (want.every((line, k) => have[i + k] === line)) return true;
  }
  return false;
}
