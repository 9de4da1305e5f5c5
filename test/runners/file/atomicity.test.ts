// Atomic writes, observed from outside: while the real runner rewrites a 50 MB file, a separate
// observer (two processes: a stat loop and a read-and-hash loop) must only ever see the old file or the new one, each with its own mode.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand, type RunResult } from '../../../src/shared/process.js';
import { RUNNERS_DIR } from '../../support/cli.js';
import { tempDir } from '../../support/tmp.js';
import type { ObservedState, ObserverConfig, ObserverKind, ObserverSummary } from './observer.js';
import { fileRunner as file, leftovers, modeOf, ROOT_ATTRS, sha256 } from './support.js';

const SIZE = 50 * 1024 * 1024;

interface Fixture {
  dir: string;
  target: string;
  /** Source files and the states they produce at the target. */
  versions: { source: string; mode: string; state: ObservedState }[];
}

/** Two 50 MB contents of different sizes and modes, and the target holding the first. */
function fixture(): Fixture {
  const dir = tempDir('govern-file-atomic-');
  const sources = path.join(dir, 'sources');
  const managed = path.join(dir, 'managed');
  fs.mkdirSync(sources);
  fs.mkdirSync(managed);
  const make = (label: string, fill: string, size: number, mode: number) => {
    const bytes = Buffer.alloc(size, fill);
    const source = path.join(sources, label);
    fs.writeFileSync(source, bytes);
    return { source, mode: mode.toString(8).padStart(4, '0'), state: { label, sha256: sha256(bytes), size, mode } };
  };
  const versions = [make('old', 'o', SIZE, 0o600), make('new', 'n', SIZE + 4096, 0o644)];
  const target = path.join(managed, 'big');
  fs.copyFileSync(versions[0].source, target);
  fs.chmodSync(target, 0o600);
  return { dir, target, versions };
}

/** Starts the two observer processes (stat loop, content loop) and resolves once both watch. */
async function startObserver(fx: Fixture): Promise<{ stop(): Promise<ObserverSummary> }> {
  const config: ObserverConfig = {
    path: fx.target,
    readyFile: path.join(fx.dir, 'observer.ready'),
    stopFile: path.join(fx.dir, 'observer.stop'),
    allowed: fx.versions.map((v) => v.state),
  };
  const configFile = path.join(fx.dir, 'observer.json');
  fs.writeFileSync(configFile, JSON.stringify(config));
  const kinds: ObserverKind[] = ['stat', 'content'];
  const running = kinds.map((kind) => runCommand(process.execPath, [path.join(__dirname, 'observer.js'), configFile, kind], { timeoutMs: 600_000 }));
  const deadline = Date.now() + 30_000;
  while (!kinds.every((kind) => fs.existsSync(`${config.readyFile}.${kind}`))) {
    if (Date.now() > deadline) throw new Error('the observers did not start');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return {
    async stop() {
      fs.writeFileSync(config.stopFile, '');
      const summaries = (await Promise.all(running)).map((r: RunResult) => {
        expect(r.code, r.stderr).to.equal(0);
        return JSON.parse(r.stdout) as ObserverSummary;
      });
      return { seen: summaries[1].seen, quickChecks: summaries[0].quickChecks, bad: summaries.flatMap((s) => s.bad) };
    },
  };
}

const storeArgs = (source: string, mode: string) => ['ensure=present', `source=${source}`, ...ROOT_ATTRS, `mode=${mode}`];

describe('file runner atomicity (50 MB files, a concurrent observer process) #once', function () {
  this.timeout(300_000);

  it('the observer only ever sees the old or the new content, each with its own mode, across rewrites', async () => {
    const fx = fixture();
    const observer = await startObserver(fx);
    let summary: ObserverSummary;
    try {
      for (const i of [1, 0, 1, 0, 1]) {
        const { source, mode } = fx.versions[i];
        expect(await file(fx.target, storeArgs(source, mode))).to.include({ code: 0, changed: true });
      }
    } finally {
      summary = await observer.stop();
    }
    expect(summary.bad, 'observed states that are neither old nor new').to.deep.equal([]);
    expect(summary.seen.old, 'the observer saw the old file').to.be.above(0);
    expect(summary.seen.new, 'the observer saw the new file').to.be.above(0);
    expect(summary.quickChecks).to.be.above(1000);
    expect(modeOf(fx.target)).to.equal(0o644);
    expect(leftovers(path.dirname(fx.target))).to.deep.equal([]);
  });

  it('control: the same observer catches a writer that rewrites in place (so the test above can fail)', async () => {
    const fx = fixture();
    const observer = await startObserver(fx);
    const naive = `const fs = require('fs');
      for (const [src, mode] of ${JSON.stringify(fx.versions.map((v) => [v.source, parseInt(v.mode, 8)]))}.concat(${JSON.stringify(fx.versions.map((v) => [v.source, parseInt(v.mode, 8)]))})) {
        fs.writeFileSync(${JSON.stringify(fx.target)}, fs.readFileSync(src));
        fs.chmodSync(${JSON.stringify(fx.target)}, mode);
      }`;
    let summary: ObserverSummary;
    try {
      expect((await runCommand(process.execPath, ['-e', naive])).code).to.equal(0);
    } finally {
      summary = await observer.stop();
    }
    expect(summary.bad.length, 'the observer saw no partial file from an in-place writer').to.be.above(0);
  });

  it('a runner killed (SIGKILL) at any moment leaves the old file or the new one, never a mix or a wrong mode', async () => {
    const fx = fixture();
    const observer = await startObserver(fx);
    const outcomes: string[] = [];
    let summary: ObserverSummary;
    try {
      // How long one rewrite takes here, under the observers' load: the kills spread over it.
      let current = 0;
      const started = Date.now();
      expect(await file(fx.target, storeArgs(fx.versions[1].source, fx.versions[1].mode))).to.include({ code: 0, changed: true });
      const duration = Date.now() - started;
      current = 1;
      for (let round = 0; round < 12; round++) {
        const delay = Math.round((duration * (round + 0.5) * 1.8) / 12);
        const { source, mode } = fx.versions[1 - current];
        const child = spawn(path.join(RUNNERS_DIR, 'file'), [fx.target, ...storeArgs(source, mode)], { stdio: 'ignore' });
        const exited = new Promise<string>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? `exit ${code}`)));
        const timer = setTimeout(() => child.kill('SIGKILL'), delay);
        const how = await exited;
        clearTimeout(timer);
        const data = fs.readFileSync(fx.target);
        const mode_ = modeOf(fx.target);
        const match = fx.versions.findIndex((v) => v.state.sha256 === sha256(data) && v.state.mode === mode_);
        outcomes.push(`${delay}ms ${how}: ${match < 0 ? 'NEITHER' : fx.versions[match].state.label}`);
        expect(match, `after a kill at ${delay} ms: size ${data.length}, mode ${mode_.toString(8)}`).to.not.equal(-1);
        current = match;
        // A killed runner cannot remove its temporary file: it stays hidden beside the target.
        for (const name of leftovers(path.dirname(fx.target))) fs.rmSync(path.join(path.dirname(fx.target), name));
      }
    } finally {
      summary = await observer.stop();
    }
    expect(summary.bad, outcomes.join(', ')).to.deep.equal([]);
    expect(outcomes.filter((o) => o.includes('SIGKILL')), 'no kill landed while the runner was working').to.not.deep.equal([]);
  });

  it('a target replaced by a symlink while the runner writes: an error, and nothing written through the link', async () => {
    const fx = fixture();
    const managed = path.dirname(fx.target);
    const victim = path.join(fx.dir, 'victim');
    fs.writeFileSync(victim, 'do not touch\n');
    fs.chmodSync(victim, 0o600);
    const swapper = runCommand(process.execPath, [path.join(__dirname, 'swapper.js'), managed, 'big', victim], { timeoutMs: 180_000 });
    await new Promise((resolve) => setTimeout(resolve, 200)); // let the swapper start watching
    const { source, mode } = fx.versions[1];
    const r = await file(fx.target, storeArgs(source, mode));
    expect((await swapper).stdout).to.equal('swapped\n');
    expect(r.code).to.equal(1);
    expect(r.message).to.equal(`${fx.target} became a symbolic link (to ${victim}) while govern was writing it; nothing was written through it and it was left as it is`);
    expect(fs.readlinkSync(fx.target)).to.equal(victim);
    expect(fs.readFileSync(victim, 'utf8')).to.equal('do not touch\n');
    expect(modeOf(victim)).to.equal(0o600);
    expect(leftovers(managed)).to.deep.equal([]);
  });
});
