// What sshd's StrictModes asks of ~/.ssh and authorized_keys (sshd_config(5)): owned by the user
// (or root), and writable by no one else. Pure: the attributes found -> the ones to set, and words.

export interface Owned {
  uid: number;
  gid: number;
  mode: number;
}

export interface AttributesPlan {
  /** The attributes to set; undefined when they are right. */
  set?: Owned;
  /** "mode 0775 -> 0755", "owner 0 -> 1000". */
  changes: string[];
}

/** The attributes of an existing path: owned by the user, group and other write bits taken away. */
export function strictAttributes(found: Owned, user: { uid: number; gid: number }): AttributesPlan {
  const changes: string[] = [];
  const mode = found.mode & ~0o022;
  if (found.uid !== user.uid) changes.push(`owner ${found.uid} -> ${user.uid}`);
  if (mode !== found.mode) changes.push(`mode ${octal(found.mode)} -> ${octal(mode)}`);
  if (changes.length === 0) return { changes };
  return { set: { uid: user.uid, gid: found.uid !== user.uid ? user.gid : found.gid, mode }, changes };
}

/** A home directory others can write makes sshd refuse every key in it: worth a warning. */
export function homeProblem(home: string, found: Owned | undefined): string | undefined {
  if (found && (found.mode & 0o022) !== 0) return `${home} is writable by its group or others (mode ${octal(found.mode)}): with StrictModes (the default) sshd refuses the keys in it`;
  return undefined;
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}
