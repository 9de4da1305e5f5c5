// Every secret text this process has met (a decrypted data value, a `secret/` fact a template
// read), and the one mask that every output goes through on its way out: stdout and stderr (plan,
// graph, diff, --json, the run's lines), the run record and what is published to the fleet. A
// secret can reach a resource's name, a tag, a command's environment or a runner's message, which
// no per-resource rule knows of; masking at the exits holds whatever carried it (docs/security.md).
import { maskText } from './sensitive.js';

const texts = new Set<string>();
let sorted: string[] | undefined;

/** A secret's text, as it is and as JSON's escapes show it (`a\"b`). */
export function addSecretText(value: string): void {
  if (value === '') return;
  const escaped = JSON.stringify(value).slice(1, -1);
  for (const form of escaped === value ? [value] : [value, escaped]) if (!texts.has(form)) {
    texts.add(form);
    sorted = undefined;
  }
}

/** The text with every secret met so far replaced by `<sensitive>`. */
export function maskSecrets(text: string): string {
  if (texts.size === 0) return text;
  sorted ??= [...texts].sort((a, b) => b.length - a.length);
  return maskText(text, sorted);
}
