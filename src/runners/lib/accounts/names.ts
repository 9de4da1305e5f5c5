// What the runners accept as account names and ids, declared once: the user and group runners'
// rule (docs/user.md, "Names": useradd's and groupadd's without Debian's relaxations), and the
// characters of an owner the others look up.
/** useradd's rule: a lower-case letter or _, then lower-case letters, digits, _ and -, an optional final $; 32 at most. */
export const ACCOUNT_NAME_PATTERN = '(?=.{1,32}$)[a-z_][a-z0-9_-]*[$]?';
/** What the runners that own files (file, archive, git, cron...) accept as an owner: names go to `getent` as an argument: no spaces, no colons, no leading "-". */
export const ACCOUNT_CHARS = 'A-Za-z0-9._@$-';
/** An owner or group key of those runners. */
export const OWNER_ACCOUNT = { type: 'string', chars: ACCOUNT_CHARS, what: 'a name or a numeric id (letters, digits and . _ @ $ -, not starting with -)' } as const;
const NAME_WHAT = 'an account name as useradd takes it (a lower-case letter or _, then lower-case letters, digits, _ or -, an optional final $; at most 32 characters)';

/** Ids: 0 to 2^32-2 (2^32-1 is the "no id" of chown and setuid). */
export const MAX_ACCOUNT_ID = 0xfffffffe;

export const ACCOUNT_NAME = { type: 'string', pattern: ACCOUNT_NAME_PATTERN, what: NAME_WHAT } as const;
export const ACCOUNT_ID = { type: 'integer', min: 0, max: MAX_ACCOUNT_ID } as const;
/** A group as a user's `group` names it: a name, or a numeric gid. */
export const GROUP_OR_GID = { type: 'string', pattern: `[0-9]{1,10}|${ACCOUNT_NAME_PATTERN}`, what: `a numeric gid or ${NAME_WHAT}` } as const;
