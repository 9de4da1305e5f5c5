// What the user runner accepts, declared once: govern checks state files against it, and the runner
// reads its arguments with it (docs/user.md).
import type { RunnerDescription } from '../../shared/description.js';
import { ACCOUNT_ID, ACCOUNT_NAME, GROUP_OR_GID } from '../lib/accounts/names.js';
import { PASSWORD } from '../lib/accounts/password.js';
import { ACCOUNT_PROVIDERS } from '../lib/accounts/provider-choice.js';

/** A character of a field of /etc/passwd: not its separator ":", nor a control character (C0, DEL, C1). */
const PASSWD_FIELD = '[^:\\x00-\\x1f\\x7f-\\x9f]';

export const description = {
  help: 'a local user account: whether it exists, its uid, groups, home, shell, comment and password hash',
  name: { ...ACCOUNT_NAME, help: 'the login name' },
  keys: {
    ensure: { type: 'enum', values: ['present', 'absent'], default: 'present', help: 'present or absent' },
    uid: { ...ACCOUNT_ID, help: 'the numeric user id; left out: useradd picks one, and an existing user keeps its own' },
    group: { ...GROUP_OR_GID, help: 'the primary group, a name or a gid; it must exist. Left out: useradd\'s default for a new user, the current one kept. With ensure = absent: only orders the removal before the group\'s' },
    groups: { type: 'list', items: ACCOUNT_NAME, help: 'supplementary groups; the user is in exactly these (groups_mode = "add": at least these). Left out: not managed. With ensure = absent: only orders the removal before the groups\'' },
    groups_mode: { type: 'enum', values: ['exact', 'add'], default: 'exact', help: 'exact: leave every group not listed; add: only join the listed ones' },
    // A field of /etc/passwd: useradd cannot write a ":" or a line break there, nor would a reader want control characters.
    home: { type: 'path', clean: true, pattern: `/${PASSWD_FIELD}*`, what: 'a clean absolute path without ":" or control characters (a line break)', help: 'the home directory' },
    managehome: {
      type: 'boolean',
      default: false,
      help: 'create the home directory with the user (from /etc/skel), move it when home changes, and remove it (and the mail spool) with the user',
    },
    shell: { type: 'path', clean: true, pattern: `/${PASSWD_FIELD}+`, what: 'a clean absolute path without ":" or control characters (a line break)', help: 'the login shell; one not in /etc/shells gets a warning (not nologin or false)' },
    comment: { type: 'string', pattern: `${PASSWD_FIELD}*`, what: 'a text without ":" or control characters (a line break, a tab)', help: 'the GECOS field (full name)' },
    system: { type: 'boolean', default: false, help: 'create a system account (uid below UID_MIN, no aging); used only when the user is created' },
    password: { ...PASSWORD, help: 'the password as a crypt(3) hash (openssl passwd -6, mkpasswd); never shown, never on a command line' },
    provider: { type: 'enum', values: ACCOUNT_PROVIDERS, help: 'the tool: shadow (useradd, usermod, userdel) or busybox (adduser, deluser: Alpine) or pw (FreeBSD); chosen from the commands on PATH when not given' },
  },
  // group and groups stay allowed for absent: there they only order the removal, before the groups'.
  rules: [{ only_when: { ensure: ['present'] }, keys: ['uid', 'home', 'shell', 'comment', 'system', 'password'] }],
  signals: ['refresh'],
  autorequire: [
    // Its groups first; when a group is being removed, the user first.
    { runner: 'group', key: 'group', reverse_when_other: { ensure: ['absent'] } },
    { runner: 'group', key: 'groups', reverse_when_other: { ensure: ['absent'] } },
  ],
} as const satisfies RunnerDescription;
