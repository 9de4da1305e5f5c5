// What the apt_repository runner accepts, declared once: govern checks state files against it, and
// the runner reads its arguments with it (docs/apt_repository.md). The keys are the names of
// Ansible's deb822_repository.
import type { RunnerDescription } from '../../shared/description.js';
import { REPOSITORY_NAME } from '../lib/repository.js';

/** One deb822 value: no white space, which separates values, and no line break, which would start a field. */
const WORD = '\\S+';
/** A fingerprint as gpg prints it (groups of four, spaces allowed), v4 (40 hex digits) or v6 (64). */
export const FINGERPRINT = '(0x)?[0-9A-Fa-f]{4}(\\s*[0-9A-Fa-f]{4}){9}|(0x)?[0-9A-Fa-f]{4}(\\s*[0-9A-Fa-f]{4}){15}';

export const description = {
  help: 'an APT source: a deb822 file in /etc/apt/sources.list.d and its signing key in /etc/apt/keyrings; one apt-get update before the next package is checked',
  name: {
    type: 'string',
    pattern: REPOSITORY_NAME,
    what: 'a source name (letters, digits, _ . and -, not starting with a dot)',
    help: 'the source, and its files sources.list.d/NAME.sources and keyrings/NAME.asc (or .gpg)',
  },
  keys: {
    ensure: { type: 'enum', values: ['present', 'absent'], default: 'present', help: 'present, or absent (the source and its key are removed)' },
    types: { type: 'list', items: { type: 'enum', values: ['deb', 'deb-src'] }, default: ['deb'], help: 'binary packages (deb), sources (deb-src) or both' },
    uris: {
      type: 'list',
      items: { type: 'string', pattern: '[A-Za-z][A-Za-z0-9+.-]*:\\S+', what: 'a URI (https://deb.example.org/debian, file:/srv/repo)' },
      help: 'where the repository is',
    },
    suites: { type: 'list', items: { type: 'string', pattern: WORD, what: 'one word' }, help: 'the suites (bookworm, stable); a path ending in / is a flat repository, which takes no components' },
    components: { type: 'list', items: { type: 'string', pattern: WORD, what: 'one word' }, help: 'the components (main, contrib); required unless every suite is a path ending in /' },
    architectures: { type: 'list', items: { type: 'string', pattern: '[a-z0-9-]+', what: 'an architecture (amd64, arm64)' }, help: 'only these architectures; every architecture dpkg is configured for when not given' },
    signed_by: {
      type: 'string',
      pattern: '[\\s\\S]*\\S[\\s\\S]*',
      what: 'an armored key, a URL or a path',
      help: 'the key the repository is signed with: an ASCII-armored public key inline, an http(s) URL (with fingerprint), or a key file (a relative path resolves against the directory of the state file); written to keyrings/NAME.asc (or .gpg for a binary key) and named by Signed-By',
    },
    fingerprint: {
      type: 'list',
      items: { type: 'string', pattern: FINGERPRINT, what: 'a key fingerprint (40 or 64 hex digits, spaces allowed)' },
      help: 'the fingerprints the key must have, every primary key of it pinned; required for a URL, which is never used unchecked',
    },
  },
  rules: [
    { when: { ensure: ['present'] }, require: ['uris', 'suites'] },
    { only_when: { ensure: ['present'] }, keys: ['types', 'uris', 'suites', 'components', 'architectures', 'signed_by', 'fingerprint'] },
    { requires: { fingerprint: ['signed_by'] } },
  ],
  signals: ['refresh'],
  // Debian's directories, and the same names wherever an APT_CONFIG moves them (apt-paths.ts asks
  // apt-config when it applies; govern cannot while it plans, so these names count in any directory).
  writes: ['sources.list.d/{name}.sources', 'keyrings/{name}.asc', 'keyrings/{name}.gpg'].flatMap((file) => [{ path: `/etc/apt/${file}` }, { path: `*/${file.split('/')[1]}` }]),
} as const satisfies RunnerDescription;
