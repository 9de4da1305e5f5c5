// The decision of a structured-document runner (json, yaml, toml): the document parsed (one that
// does not parse is refused, never replaced), the value at the key path compared, and the format's
// own edit of the text checked against what the change makes of the data, so that an edit can only
// change the key it is about. Pure: each format gives its parser and its edit.
import { UserError } from '../../../shared/errors.js';
import { decideEdit, unchanged, type EditCurrent, type EditPlan } from '../text-edit/decide-edit.js';
import { getAt, sameTree, withValue, type Tree } from './tree.js';

/** A document format, as a library reads and edits it. */
export interface DocFormat {
  /** "JSON", for messages. */
  name: string;
  /** The data; throws a message ("line 3, column 5: ...") when the text is not a document. Blank text: undefined. */
  parse(text: string): Tree;
  /** The text changed at the path (value undefined: removed) so that it parses as `after`, the rest kept. */
  edit(text: string, before: Tree, path: readonly string[], value: unknown, after: Tree): string;
  /** Why the value cannot be written in this format (TOML has no null), if it cannot. */
  refuse?(value: unknown): string | undefined;
}

export interface DocDesired {
  path: string;
  /** As the user wrote it, for messages. */
  key: string;
  segments: string[];
  ensure: 'present' | 'absent';
  value?: unknown;
  create: boolean;
}

const BOM = '\uFEFF';

export function decideDoc(format: DocFormat, desired: DocDesired, current: EditCurrent, noop: boolean): EditPlan {
  const what = `the key ${desired.key}`;
  return decideEdit({ path: desired.path, ensure: desired.ensure, create: desired.create, what }, current, noop, (content) => editDoc(format, desired, content));
}

function editDoc(format: DocFormat, d: DocDesired, content: Buffer): EditPlan {
  const decoded = content.toString('utf8');
  if (!Buffer.from(decoded, 'utf8').equals(content)) throw new UserError(`${d.path} is not UTF-8 text; govern edits a ${format.name} document only in UTF-8`);
  // A byte order mark is kept, and no parser's business.
  const bom = decoded.startsWith(BOM) ? BOM : '';
  const text = decoded.slice(bom.length);
  const before = parsed(format, d.path, text);
  const now = getAt(before, d.segments);
  const shown = (upTo: number) => (upTo === 0 ? 'the document' : d.segments.slice(0, upTo).join('/'));

  if (d.ensure === 'absent') {
    if (!now.found) return unchanged(`${d.key} absent`);
    // The next item would take its index: removed again at every run.
    if (Array.isArray(getAt(before, d.segments.slice(0, -1)).value)) throw new UserError(`${d.key} names a list item by its index: ensure = "absent" cannot remove one (the next item takes its index); set the list whole instead`);
  } else {
    if (now.found && sameTree(now.value, d.value)) return unchanged(`${d.key} up to date`);
    const refusal = format.refuse?.(d.value);
    if (refusal !== undefined) throw new UserError(`${d.key}: ${refusal}`);
  }
  const value = d.ensure === 'present' ? d.value : undefined;
  const after = withValue(before, d.segments, value, shown);
  const edited = format.edit(text, before, d.segments, value, after);
  let check: Tree;
  try {
    check = format.parse(edited);
  } catch {
    check = Symbol('unparsed');
  }
  if (!sameTree(check, after)) {
    throw new UserError(`govern could not change ${d.key} in ${d.path} without changing the rest of the document; the file is left as it was`);
  }
  const summary = d.ensure === 'absent' ? `removed ${d.key}` : now.found ? `set ${d.key}` : `added ${d.key}`;
  return { changed: true, summary, content: Buffer.from(bom + edited, 'utf8'), warnings: [] };
}

function parsed(format: DocFormat, path: string, text: string): Tree {
  try {
    return format.parse(text);
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`${path} is not a valid ${format.name} document (${(e as Error).message}); govern does not replace a document it cannot read`);
  }
}
