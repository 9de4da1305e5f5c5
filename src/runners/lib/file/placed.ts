// What a runner that puts a file or directory at its name (archive, download, git) is ordered
// after, declared once: the directory it goes in when a file resource makes it, the mount it is
// under, and (PLACED_OWNED) the accounts it is given to.
export const PLACED = [
  { runner: 'file', parent_of_name: true },
  { runner: 'mount', parent_of_name: true },
] as const;

export const PLACED_OWNED = [...PLACED, { runner: 'user', key: 'owner' }, { runner: 'group', key: 'group' }] as const;
