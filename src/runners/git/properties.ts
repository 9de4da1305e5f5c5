// The git runner's properties, from its arguments as the description reads them. Pure.
import type { RunnerRequest, Values } from '../kit/index.js';
import type { description } from './description.js';

type Described = Values<typeof description>;

export interface GitProperties {
  dir: string;
  ensure: Described['ensure'];
  source: string;
  revision?: string;
  user?: string;
  depth?: number;
  force: boolean;
  /** Only a commit signed by a key of this file is checked out. */
  allowedSigners?: string;
}

export function gitProperties(request: Pick<RunnerRequest<Described>, 'name' | 'values'>): GitProperties {
  const v = request.values;
  return { dir: request.name, ensure: v.ensure, source: v.source!, revision: v.revision, user: v.user, depth: v.depth, force: v.force, allowedSigners: v.allowed_signers };
}

/** A commit id (abbreviated or whole) rather than a branch or tag name. */
export function isCommitId(revision: string): boolean {
  return /^[0-9a-f]{7,40}$/.test(revision) || isFullCommitId(revision);
}

/** A whole commit id (SHA-1 or SHA-256): always the object, never a ref of that name. */
export function isFullCommitId(revision: string): boolean {
  return /^([0-9a-f]{40}|[0-9a-f]{64})$/.test(revision);
}
