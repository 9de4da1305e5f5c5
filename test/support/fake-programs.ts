// What every FAKE program the tests put first on PATH shares (a tool that cannot run on Debian,
// docs/portability.md): a directory of its own with bin/, the programs, and a log of their calls,
// one line each, `PROGRAM [ARG]...`, that a test takes to pin the argv govern sent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A shell function for the fakes' scripts: `log_call "$@"` appends the call to $FAKE_CALLS. */
export const LOG_CALL = `log_call() { printf '%s' "$(basename "$0")" >> "$FAKE_CALLS"; for a in "$@"; do printf ' [%s]' "$a" >> "$FAKE_CALLS"; done; echo >> "$FAKE_CALLS"; }
`;

export class FakePrograms {
  readonly dir: string;
  readonly bin: string;
  /** The log of calls: $FAKE_CALLS in the scripts. */
  readonly calls: string;

  /** `subdirs`: the fake's own state, under dir ($FAKE_DIR in the scripts). */
  constructor(prefix: string, subdirs: string[] = []) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    this.bin = path.join(this.dir, 'bin');
    this.calls = path.join(this.dir, 'calls');
    for (const sub of ['bin', ...subdirs]) fs.mkdirSync(path.join(this.dir, sub));
    fs.writeFileSync(this.calls, '');
  }

  /** bin/NAME, executable; `also` are more names for it (links, as busybox's applets are). */
  program(name: string, script: string, also: string[] = []): void {
    fs.writeFileSync(path.join(this.bin, name), script, { mode: 0o755 });
    for (const other of also) fs.symlinkSync(name, path.join(this.bin, other));
  }

  /** The variables of a call: the fakes first on PATH (before `rest`, the caller's PATH unless given). */
  fakeEnv(rest: string = process.env.PATH ?? '/usr/bin:/bin'): NodeJS.ProcessEnv {
    return { PATH: `${this.bin}:${rest}`, FAKE_DIR: this.dir, FAKE_CALLS: this.calls };
  }

  /** The calls since the last take, one line each: `rcctl [check] [nginx]`. */
  takeCalls(): string[] {
    const calls = fs.readFileSync(this.calls, 'utf8').split('\n').filter((l) => l !== '');
    fs.writeFileSync(this.calls, '');
    return calls;
  }

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
