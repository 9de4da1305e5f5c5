// Asking a runner what it accepts: the built-in runners, a sh runner that describes itself, one that
// does not (it must change nothing when asked), and descriptions govern refuses.
import { expect } from 'chai';
import { BUILT_IN_RUNNERS } from '../../src/runners/registry.js';
import fs from 'node:fs';
import path from 'node:path';
import { checkDescription } from '../../src/describe/check-description.js';
import { describeRunner } from '../../src/describe/describe-runner.js';
import { RUNNERS_DIR, shRunner } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

/** A sh runner whose answer to GOVERN_DESCRIBE is this JSON. */
function describing(dir: string, name: string, document: unknown): string {
  return shRunner(dir, name, `[ "\${GOVERN_DESCRIBE:-}" = 1 ] && { cat <<'EOF'\n${JSON.stringify(document)}\nEOF\nexit 0; }\necho "message=applied $1"`);
}

describe('describing a runner #once', () => {
  for (const runner of BUILT_IN_RUNNERS) {
    it(`the built-in ${runner} runner describes itself, persistent, with a valid description and its sources`, async () => {
      const answer = await describeRunner(path.join(RUNNERS_DIR, runner), process.env);
      expect(answer.kind).to.equal('described');
      if (answer.kind !== 'described') return;
      expect(answer.description.persistent).to.equal(true);
      // Every built-in runner answers refresh (docs/runners.md, "Notification mode").
      expect(answer.description.signals).to.include('refresh');
      expect(Object.keys(answer.description.keys ?? {})).to.include.members(runner === 'exec' ? ['command'] : runner === 'archive' ? ['source', 'sha256'] : runner === 'git' ? ['ensure', 'source'] : ['ensure']);
      // The runner's bundle (scripts/bundle.js): rebuilt, it is described again.
      // Its bundle, then the vendor files of the libraries it loads (a document runner's parser).
      const [own, ...libraries] = answer.description.sources ?? [];
      expect(own).to.equal(path.resolve(__dirname, '..', '..', 'bundle', `runner-${runner}.js`));
      for (const library of libraries) expect(path.basename(library)).to.match(/^vendor-[a-z-]+\.js$/);
    });
  }

  it('a sh runner that describes itself', async () => {
    const dir = tempDir();
    const doc = { govern_runner: 1, keys: { text: { type: 'string', required: true } }, signals: [] };
    expect(await describeRunner(describing(dir, 'line', doc), process.env)).to.deep.equal({ kind: 'described', description: doc });
  });

  it('a runner that does not describe itself is asked with GOVERN_NOOP=1 and no arguments, and left unchecked', async () => {
    const dir = tempDir();
    const seen = path.join(dir, 'seen');
    const runner = shRunner(dir, 'plain', `echo "noop=\${GOVERN_NOOP:-} args=$#" > ${seen}\necho "message=nothing to do for $1"`);
    expect(await describeRunner(runner, process.env)).to.deep.equal({ kind: 'undescribed' });
    expect(fs.readFileSync(seen, 'utf8')).to.equal('noop=1 args=0\n');
    const failing = shRunner(dir, 'strict', 'echo "usage: strict NAME" >&2; exit 2');
    expect((await describeRunner(failing, process.env)).kind).to.equal('undescribed');
  });

  it('a description govern cannot use is an error naming what is wrong', async () => {
    const dir = tempDir();
    const bad = { govern_runner: 1, keys: { mode: { type: 'octal', requird: true } }, rules: [{ exclusive: ['mode', 'owner'] }] };
    const answer = await describeRunner(describing(dir, 'bad', bad), process.env);
    expect(answer).to.deep.equal({
      kind: 'invalid',
      problem:
        'its description is not valid: keys.mode: unknown field "requird" (did you mean "required"?); ' +
        'keys.mode.type: must be one of string, integer, boolean, enum, mode, path, duration, regex, list, map; ' +
        'rules[0].exclusive: "owner" is not one of its keys',
    });
  });

  it('checks every part of a description', () => {
    expect(checkDescription({ govern_runner: 2 })).to.deep.equal(['govern_runner: format 2 is not one this govern knows (1)']);
    expect(checkDescription({ govern_runner: 1, signal: ['x'] })).to.deep.equal(['description: unknown field "signal" (did you mean "signals"?)']);
    expect(checkDescription({
      govern_runner: 1,
      keys: {
        notify: { type: 'string' },
        n: { type: 'integer', default: 'many' },
        p: { type: 'string', pattern: '(' },
        l: { type: 'list', items: { type: 'list' } },
        e: { type: 'enum' },
      },
      signals: ['re load'],
      rules: [{ when: { e: ['x'] }, relative_paths: { p: 'socket', q: 'file' } }],
      autorequire: [{ runner: 'file' }, { runner: 'file', key: 'nope' }],
      sources: ['relative'],
    })).to.deep.equal([
      'keys.notify: this key belongs to govern, not to a runner',
      'keys.n.default: "many" is not an integer',
      'keys.p.pattern: not a valid regular expression (Unterminated group)',
      'keys.l.items: a list of lists cannot be passed as arguments',
      'keys.e.values: an enum needs its values',
      'rules[0].relative_paths.p: must be one of file, directory',
      'rules[0].relative_paths: "q" is not one of its keys (did you mean "n"?)',
      'signals[0]: a signal is letters, digits, _ . and -',
      'autorequire[0]: give one of key, parent_of_name = true, name_or_parent = true, systemd_unit_of_name = true, same_key or every = true',
      'autorequire[1].key: "nope" is not one of its keys',
      'sources[0]: must be an absolute path',
    ]);
  });

  it('checks the files a description says its runner writes: templates of its name, its keys, homes and the environment', () => {
    const keys = { user: { type: 'string' }, scope: { type: 'enum', values: ['a', 'b'] } };
    const good = ['/etc/x/{name}', '/etc/y/{name|slash_to_dot}.conf', '~{user}/.ssh/keys', '~/.config/{name}', '{$XDG_CONFIG_HOME}/x/{name}', '*/{name}.asc'];
    expect(checkDescription({ govern_runner: 1, keys, writes: good.map((path) => ({ path, when: { scope: ['a'] } })) })).to.deep.equal([]);
    expect(checkDescription({
      govern_runner: 1,
      keys,
      writes: [
        { path: 'relative/{name}' },
        { path: '/etc/{usr}' },
        { path: '/etc/{name|upper}' },
        { path: '~user/x' },
        { path: '*/a/{name}' },
        { path: '/etc/{name' },
        { path: '/etc/x', when: { scop: ['a'] }, unless: {} },
        {},
      ],
    })).to.deep.equal([
      'writes[0].path: must start with /, ~/, ~{KEY}/, {$VARIABLE} or */',
      'writes[1].path: {usr}: "usr" is not one of its keys',
      'writes[2].path: {name|upper}: unknown filter "upper" (slash_to_dot)',
      'writes[3].path: ~ is followed by / or by one {KEY} and /',
      'writes[4].path: */ takes a file name, without /',
      'writes[5].path: a { without its } (or the other way round)',
      'writes[6]: unknown field "unless"',
      'writes[6].when: "scop" is not one of its keys (did you mean "scope"?)',
      'writes[7].path: must be a path template',
    ]);
  });
});
