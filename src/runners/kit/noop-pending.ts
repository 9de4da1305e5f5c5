// In noop mode, what a runner cannot find may be what an earlier resource of the run would create
// (GOVERN_NOOP_PENDING, docs/runners.md): the runner then reports what it would do, with a note
// naming that resource, instead of failing on the missing user, group, package or file.

export interface PendingRequest {
  noop: boolean;
  pending: readonly string[];
}

/** The first of these RREFs that an earlier resource of a noop run would change; none outside noop. */
export function pendingResource(request: PendingRequest, ...refs: string[]): string | undefined {
  if (!request.noop) return undefined;
  return refs.find((ref) => request.pending.includes(ref));
}

/** The pending resources of one runner (`pkg`), nearest first; none outside noop. */
export function pendingOf(request: PendingRequest, runner: string): string[] {
  if (!request.noop) return [];
  return request.pending.filter((ref) => ref.startsWith(`${runner}:`));
}

export interface Missing {
  /** What is missing: `user "app"`. */
  what: string;
  /** The earlier resource that would create it. */
  ref: string;
}

/** The note added to a noop message: `user "app" and group "app" do not exist yet: user:app would create them` (a package: install). */
export function pendingNote(missing: readonly Missing[]): string {
  const refs = [...new Set(missing.map((m) => m.ref))];
  return refs
    .map((ref) => {
      const whats = missing.filter((m) => m.ref === ref).map((m) => m.what);
      const many = whats.length > 1;
      const verb = ref.startsWith('pkg:') ? 'install' : 'create';
      return `${whats.join(' and ')} ${many ? 'do' : 'does'} not exist yet: ${ref} would ${verb} ${many ? 'them' : 'it'}`;
    })
    .join('; ');
}
