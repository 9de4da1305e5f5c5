// The apt_repository decision's own part: the order of its changes. What to write or remove, and the
// message, is the repository runners' shared decision (src/runners/lib/repository.ts). Pure.

/**
 * The order of the changes: keys written before the source that names them, keys removed after it,
 * so that apt, whenever it reads the source, finds the key it names.
 */
export function applyOrder<T extends { plan: { action: string } }>(keys: T[], source: T): T[] {
  return [...keys.filter((k) => k.plan.action === 'write'), source, ...keys.filter((k) => k.plan.action !== 'write')];
}
