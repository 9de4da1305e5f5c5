// What `govern plan` shows of one planned resource: its final attributes with hidden values masked,
// its place in the apply order and where it was declared. Paths are shown relative to the tree, so
// that the same tree planned from two directories (two revisions in `govern diff`) reads the same.
import path from 'node:path';
import type { ResourceGraph } from '../graph/resource-graph.js';
import type { Location } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';
import { hiddenKey, SENSITIVE } from '../shared/sensitive.js';
import type { Resource } from '../state/resource.js';

/**
 * The hidden values of a resource (JSON text by key), kept under a symbol so that no JSON output
 * carries them: `govern diff` compares them to say that a hidden value changed, never what it is.
 */
export const HIDDEN_VALUES = Symbol('hidden values');

export interface ResourceView {
  ref: string;
  /** 1-based position in the apply order. */
  order: number;
  /** `file:line`, the file relative to the tree. */
  at: string;
  attrs: Record<string, AttrValue>;
  /** Keys whose values are shown as `<sensitive>`. */
  hidden: string[];
  sensitive: boolean;
  tags: string[];
  before: string[];
  after: string[];
  notify: string[];
  subscribe: string[];
  /** The module instance the resource came from (its name), when the state phase records one. */
  module?: string;
  /** The roles that brought the resource in, when the data phase records them. */
  roles?: string[];
  /** Not applied by this command line's --tags / --skip-tags. */
  skipped?: boolean;
  [HIDDEN_VALUES]?: Record<string, string>;
}

/** Fields that module expansion and roles add to a Resource; read only if present. */
interface Composed {
  module?: unknown;
  roles?: unknown;
}

/** Files as shown, by root then file: a diff shows the same few files for thousands of resources. */
const shownFiles = new Map<string, Map<string, string>>();

export function locationText(at: Location, root: string): string {
  let shown = shownFiles.get(root);
  if (!shown) shownFiles.set(root, (shown = new Map()));
  let file = shown.get(at.file);
  if (file === undefined) shown.set(at.file, (file = path.relative(root, path.resolve(at.file)) || path.basename(at.file)));
  return at.line !== undefined ? `${file}:${at.line}` : file;
}

export function resourceView(r: Resource, order: number, root: string, selected?: Set<string>): ResourceView {
  const attrs: Record<string, AttrValue> = {};
  const hidden: string[] = [];
  const hiddenValues: Record<string, string> = {};
  for (const key of Object.keys(r.attrs).sort()) {
    if (hiddenKey(r, key)) {
      attrs[key] = SENSITIVE;
      hidden.push(key);
      hiddenValues[key] = JSON.stringify(r.attrs[key]);
    } else attrs[key] = r.attrs[key];
  }
  const composed = r as Resource & Composed;
  const view: ResourceView = {
    ref: r.ref,
    order,
    at: locationText(r.at, root),
    attrs,
    hidden,
    sensitive: r.sensitive === true,
    tags: r.tags,
    ...r.links,
    [HIDDEN_VALUES]: hiddenValues,
  };
  const module = composed.module as { instance?: unknown } | string | undefined;
  if (typeof module === 'string') view.module = module;
  else if (typeof module?.instance === 'string') view.module = module.instance;
  if (Array.isArray(composed.roles)) view.roles = composed.roles.map(String);
  if (selected && !selected.has(r.ref)) view.skipped = true;
  return view;
}

/** Every resource of the plan, in apply order. */
export function previewView(plan: ResourceGraph, root: string, selected?: Set<string>): ResourceView[] {
  return plan.order.map((ref, i) => resourceView(plan.byRef.get(ref)!, i + 1, root, selected));
}
