// What the dnf_repository runner accepts, declared once: govern checks state files against it, and
// the runner reads its arguments with it (docs/dnf_repository.md). The keys are those of the .repo
// file (dnf.conf(5)) and of Ansible's yum_repository.
import type { RunnerDescription } from '../../shared/description.js';
import { REPOSITORY_NAME } from '../lib/repository.js';

const URL = { type: 'string', pattern: '[A-Za-z][A-Za-z0-9+.-]*:\\S+', what: 'a URL (https://rpm.example.org/el9, file:///srv/repo)' } as const;

export const description = {
  help: 'a DNF repository: a .repo file in /etc/yum.repos.d; one dnf makecache before the next package is checked',
  name: {
    type: 'string',
    pattern: REPOSITORY_NAME,
    what: 'a repository id (letters, digits, _ . and -, not starting with a dot)',
    help: 'the repository id, and its file /etc/yum.repos.d/NAME.repo',
  },
  keys: {
    ensure: { type: 'enum', values: ['present', 'absent'], default: 'present', help: 'present, or absent (the file is removed)' },
    baseurl: { type: 'list', items: URL, help: 'where the repository is (several: mirrors of it)' },
    description: { type: 'string', pattern: '[^\\n\\r]*\\S[^\\n\\r]*', what: 'one line of text', help: 'its human-readable name (the file\'s name=); the repository id when not given' },
    enabled: { type: 'boolean', default: true, help: 'whether dnf uses it' },
    gpgcheck: { type: 'boolean', default: true, help: 'whether dnf checks the packages\' signatures' },
    gpgkey: { type: 'list', items: URL, help: 'the keys the packages are signed with (file:///etc/pki/rpm-gpg/KEY, https://...), imported by dnf at the first install' },
  },
  rules: [
    { when: { ensure: ['present'] }, require: ['baseurl'] },
    { only_when: { ensure: ['present'] }, keys: ['baseurl', 'description', 'enabled', 'gpgcheck', 'gpgkey'] },
  ],
  signals: ['refresh'],
  writes: [{ path: '/etc/yum.repos.d/{name}.repo' }],
} as const satisfies RunnerDescription;
