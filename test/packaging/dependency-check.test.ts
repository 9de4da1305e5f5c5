// `make check-deps`, the check of src/'s flow (docs/architecture.md), run on copies of src/: it
// passes on the code as it is, and fails, naming the rule, on one planted import against the flow,
// one planted cycle, one import between two rooms of one layer and one import of an unplaced room.
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { runCommand, type RunResult } from '../../src/shared/process.js';
import { ROOT } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise');

/** A copy of src/ and the check's configuration, with `plant` appended to each file it names. */
async function checkCopy(plant: Record<string, string>): Promise<RunResult> {
  const dir = tempDir('govern-deps-');
  fs.cpSync(path.join(ROOT, 'src'), path.join(dir, 'src'), { recursive: true });
  for (const file of ['.dependency-cruiser.cjs', 'tsconfig.json']) fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
  for (const [file, line] of Object.entries(plant)) {
    const target = path.join(dir, 'src', file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.appendFileSync(target, `\n${line}\n`);
  }
  // Plain text to match: with CI set, the checker's colour library turns colours on without a terminal.
  return runCommand(DEPCRUISE, ['--config', '.dependency-cruiser.cjs', 'src'], { cwd: dir, env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' }, timeoutMs: 120_000 });
}

describe('the dependency check (make check-deps) #once', () => {
  it('passes on src/ as it is: no import against the flow, no cycle', async () => {
    const r = await checkCopy({});
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(r.stdout).to.match(/no dependency violations found \([1-9]\d* modules/);
  });

  it('fails on an import that runs back up the flow, naming both files', async () => {
    const r = await checkCopy({ 'shared/errors.ts': "import '../cli/main.js';" });
    expect(r.code).to.not.equal(0);
    expect(r.stdout).to.match(/error flow-shared: src\/shared\/errors\.ts → src\/cli\/main\.ts/);
  });

  it('fails on two files that import each other', async () => {
    // data/lookup.ts imports data/source.ts; this closes the circle.
    const r = await checkCopy({ 'data/source.ts': "import './lookup.js';" });
    expect(r.code).to.not.equal(0);
    expect(r.stdout).to.match(/error no-cycle: src\/data\/(source|lookup)\.ts →/);
    expect(r.stdout).to.not.match(/error flow-/);
  });

  it('fails on an import between two rooms of one layer, and on a room the flow does not place', async () => {
    const r = await checkCopy({ 'lock/run-lock.ts': "import '../hcl/syntax.js';", 'newroom/thing.ts': "import '../shared/errors.js';" });
    expect(r.code).to.not.equal(0);
    expect(r.stdout).to.match(/error flow-lock-beside: src\/lock\/run-lock\.ts → src\/hcl\/syntax\.ts/);
    expect(r.stdout).to.match(/error every-room-placed-from: src\/newroom\/thing\.ts → src\/shared\/errors\.ts/);
  });
});
