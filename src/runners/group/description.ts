// What the group runner accepts, declared once: govern checks state files against it, and the runner
// reads its arguments with it (docs/group.md).
import type { RunnerDescription } from '../../shared/description.js';
import { ACCOUNT_ID, ACCOUNT_NAME } from '../lib/accounts/names.js';
import { ACCOUNT_PROVIDERS } from '../lib/accounts/provider-choice.js';

export const description = {
  help: 'a local group: whether it exists, its gid and its members',
  name: { ...ACCOUNT_NAME, help: 'the group name' },
  keys: {
    ensure: { type: 'enum', values: ['present', 'absent'], default: 'present', help: 'present or absent; a group that is some user\'s primary group is not removed' },
    gid: { ...ACCOUNT_ID, help: 'the numeric group id; left out: groupadd picks one, and an existing group keeps its own' },
    system: { type: 'boolean', default: false, help: 'create a system group (gid below GID_MIN); used only when the group is created' },
    members: { type: 'list', items: ACCOUNT_NAME, help: 'the users listed as members; exactly these (members_mode = "add": at least these). Left out: not managed' },
    members_mode: { type: 'enum', values: ['exact', 'add'], default: 'exact', help: 'exact: remove every member not listed; add: only add the listed ones' },
    provider: { type: 'enum', values: ACCOUNT_PROVIDERS, help: 'the tool: shadow (groupadd, groupmod, gpasswd) or busybox (addgroup, delgroup: Alpine) or pw (FreeBSD); chosen from the commands on PATH when not given' },
  },
  rules: [{ only_when: { ensure: ['present'] }, keys: ['gid', 'system', 'members', 'members_mode'] }],
  signals: ['refresh'],
} as const satisfies RunnerDescription;
