// What `password` accepts: a crypt(3) hash as /etc/shadow holds it, never a clear password. A
// pattern in the description, so a clear password is refused while planning, before anything is
// applied (docs/user.md, "Passwords").
const B64 = '[./0-9A-Za-z]';
const HASHES = [
  `\\$1\\$${B64}{1,8}\\$${B64}{22}`, // MD5
  `\\$2[abxy]\\$[0-9]{2}\\$${B64}{53}`, // bcrypt
  `\\$5\\$(rounds=[0-9]{1,9}\\$)?${B64}{0,16}\\$${B64}{43}`, // SHA-256
  `\\$6\\$(rounds=[0-9]{1,9}\\$)?${B64}{0,16}\\$${B64}{86}`, // SHA-512
  `\\$(y|gy)\\$${B64}+\\$${B64}*\\$${B64}{43}`, // yescrypt, gost-yescrypt
  `\\$7\\$${B64}+\\$${B64}{43}`, // scrypt
];

/** A hash, optionally locked with a leading "!"; or "!" / "*" / "!*" alone: no password login. */
export const PASSWORD_HASH_PATTERN = `!?(${HASHES.join('|')})|!|\\*|!\\*`;

export const PASSWORD = {
  type: 'string',
  pattern: PASSWORD_HASH_PATTERN,
  sensitive: true,
  what: 'a crypt(3) hash ($6$... SHA-512, $y$... yescrypt, $5$, $2b$, $1$; "!" in front locks it), or "!" or "*" for no password login; never a clear password',
} as const;
