// The one place that decides how a hidden value is shown: `<sensitive>`. A resource with
// `sensitive = true` hides every value but those its runner describes as `shown` (what the resource
// is, not its value: a file's mode and owner); one with `show_diff = false` hides its `contents`.
// The report (messages, logs, diffs), the -vv invocation lines and the problems found while planning
// all pass their text through here (docs/templates.md, "Secrets").
import type { AttrValue, Attributes } from './protocol.js';

export const SENSITIVE = '<sensitive>';

/** Facts under `secret/` (`secret/db_password`, on this host or another) taint what uses them. */
export function isSensitiveFact(name: string): boolean {
  return name.startsWith('secret/');
}

/** What a resource hides: enough of a Resource for this module, which sits below state/. */
export interface Disclosing {
  attrs: Attributes;
  sensitive?: boolean;
  /** Keys whose runner describes them as secret (`sensitive` in its description): only their values are hidden. */
  secretKeys?: readonly string[];
  /** Keys of a sensitive resource whose runner describes them as `shown` (a file's ensure, owner, group, mode): only the others' values are hidden. */
  shownKeys?: readonly string[];
  template?: { vars: { [key: string]: AttrValue } };
}

/** Whether the key's value is hidden (invocation lines show `key=<sensitive>`). */
export function hiddenKey(resource: Disclosing, key: string): boolean {
  if (resource.secretKeys?.includes(key) === true || (key === 'contents' && resource.attrs.show_diff === false)) return true;
  return resource.sensitive === true && resource.shownKeys?.includes(key) !== true;
}

/** The texts that must not appear in what govern shows about the resource, longest first. */
export function secretsOf(resource: Disclosing): string[] {
  const texts = new Set<string>();
  const add = (value: AttrValue | undefined): void => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) value.forEach(add);
    else if (typeof value === 'object') {
      texts.add(JSON.stringify(value));
      Object.values(value).forEach(add);
    } else texts.add(String(value));
  };
  for (const [key, value] of Object.entries(resource.attrs)) if (hiddenKey(resource, key)) add(value);
  if (resource.sensitive) add(resource.template?.vars);
  texts.delete('');
  return [...texts].sort((a, b) => b.length - a.length);
}

const WORD = /[A-Za-z0-9_]/;
/** A content hash in a message (`sha256:1a2b3c4d5e6f`): a short secret could be found from it. */
const HASH = /\b(sha256|sha1|md5):[0-9a-f]{6,}/g;

/** What hides a resource's values in a text: the identity when it hides none. */
export function masker(resource: Disclosing): (text: string) => string {
  const secrets = secretsOf(resource);
  if (secrets.length === 0 && !resource.sensitive) return (text) => text;
  return (text) => maskText(text, secrets, resource.sensitive === true);
}

/**
 * The text with every secret replaced by `<sensitive>`, and, for a sensitive resource
 * (`hashes`), content hashes too. A value of fewer than 4 characters (`0`, `yes`) is replaced only as a whole word, so that
 * it does not cut other words apart.
 */
export function maskText(text: string, secrets: readonly string[], hashes = false): string {
  let out = text;
  for (const secret of secrets) {
    if (!out.includes(secret)) continue;
    if (secret.length >= 4) out = out.split(secret).join(SENSITIVE);
    else out = replaceWord(out, secret);
  }
  return hashes ? out.replace(HASH, `$1:${SENSITIVE}`) : out;
}

function replaceWord(text: string, word: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = text[at - 1];
    const after = text[at + word.length];
    const bounded = (before === undefined || !WORD.test(before) || !WORD.test(word[0])) && (after === undefined || !WORD.test(after) || !WORD.test(word[word.length - 1]));
    if (!bounded || at < from) continue;
    out += text.slice(from, at) + SENSITIVE;
    from = at + word.length;
  }
  return out + text.slice(from);
}
