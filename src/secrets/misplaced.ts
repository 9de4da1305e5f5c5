// An encrypted value is decrypted only where it belongs, in data/ (docs/secrets.md). Written
// anywhere else (inline in a state file, in a file's contents or template, as a module parameter's
// default) it would reach the host as its ciphertext: that is refused at planning, where it is.
import type { Location, Problem } from '../shared/errors.js';
import type { AttrValue } from '../shared/protocol.js';

/** What this check reads of a planned resource (a Resource of src/state, which sits above). */
interface Planned {
  ref: string;
  attrs: { [key: string]: AttrValue };
  at: Location;
  keyAt?: Record<string, Location>;
}

/** `ENC[age,to=...,BASE64]` anywhere in a text (the data file form, docs/secrets.md). */
const ENCRYPTED_INSIDE = /ENC\[age,to=[A-Za-z0-9_.+-]*,[A-Za-z0-9+/]{16,}={0,2}\]/;

function holdsCiphertext(value: AttrValue): boolean {
  // Nearly no value holds the marker: a search for it is cheaper than the pattern over every text (a
  // file's contents among them), which planning runs on every value of every resource.
  if (typeof value === 'string') return value.includes('ENC[age,') && ENCRYPTED_INSIDE.test(value);
  if (Array.isArray(value)) return value.some(holdsCiphertext);
  if (value !== null && typeof value === 'object') {
    for (const key in value) if (holdsCiphertext(value[key])) return true;
  }
  return false;
}

/** Every key of every resource that holds an encrypted value's text, at the key's line. */
export function misplacedEncrypted(resources: readonly Planned[]): Problem[] {
  const problems: Problem[] = [];
  for (const r of resources) {
    for (const key in r.attrs) {
      if (!holdsCiphertext(r.attrs[key])) continue;
      const at = r.keyAt?.[key] ?? r.at;
      problems.push({ ...at, message: `${r.ref}: ${key} holds an encrypted value (ENC[age,...]) that would be used as its ciphertext: an encrypted value belongs in a data file under data/, read with {{data "KEY"}} (or as a module parameter from data), which decrypts it (docs/secrets.md)` });
    }
  }
  return problems;
}
