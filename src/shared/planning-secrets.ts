// Every secret planning has met, and the one mask every message of planning goes through before it
// is printed or stored (stderr, --json, the run record and so status and the metrics). A message
// may be made by any phase (a template helper, the HCL parser, a check of a value) before the
// resource it quotes is known to be sensitive: masking where problems are collected, rather than
// where each is made, holds whatever produced it (docs/security.md, "Secrets in messages").
import { UserError, type Problem } from './errors.js';
import { addSecretText } from './secret-texts.js';
import { maskText, secretsOf, SENSITIVE, type Disclosing } from './sensitive.js';

/** A state file that failed to parse, whose text holds a secret (see maskUnparsed). */
interface Unparsed {
  file: string;
  text: string;
}

/** A `sensitive = true` written anywhere in a text, as far as a reader of the text alone can tell. */
const SENSITIVE_KEY_WRITTEN = /(^|[\s{;,])sensitive\s*=\s*true\b/m;
/** A quoted fragment of a message: `"Kx9SecretTail"`. */
const QUOTED = /"((?:[^"\\]|\\.)*)"/g;
const HAS_WORD = /[\p{L}\p{N}]/u;

export class PlanningSecrets {
  /** Values of secret facts: hidden wherever they appear. */
  private readonly factValues = new Set<string>();
  /** Resources planning made; their values are looked at only when a message is masked (a failure). */
  private readonly resources: Disclosing[] = [];
  private readonly unparsed: Unparsed[] = [];

  /** The values of secret facts a template used. */
  addFactValues(values: Iterable<string>): void {
    for (const value of values) {
      addSecretText(value);
      for (const form of forms(value)) this.factValues.add(form);
    }
  }

  /** A resource planning made: what it hides, or what it shows. */
  addResource(resource: Disclosing): void {
    this.resources.push(resource);
  }

  /**
   * A state file the parser refused. Its resources are unknown, so a `sensitive = true` in it, or a
   * secret fact it used, makes every quoted fragment of its problems that the text holds hidden: a
   * parser quotes the piece of a value it stopped at (`"Kx9SecretTail" is not a valid template control keyword`).
   */
  addUnparsed(file: string, text: string, usedSecretFacts: boolean): void {
    if (usedSecretFacts || SENSITIVE_KEY_WRITTEN.test(text)) this.unparsed.push({ file, text });
  }

  /** The text with every secret met so far replaced by `<sensitive>`. */
  mask(text: string): string {
    return maskText(text, this.secretTexts());
  }

  /**
   * Secret facts' values, and the values of sensitive resources (and hidden keys) except those a
   * resource that hides nothing shows anyway (`present`, `root`), longest first.
   */
  private secretTexts(): string[] {
    const hidden = new Set<string>();
    const shown = new Set<string>();
    for (const r of this.resources) {
      const secrets = secretsOf(r);
      for (const text of secrets) for (const form of forms(text)) hidden.add(form);
      if (!r.sensitive) for (const text of secretsOf({ ...r, sensitive: true })) if (!secrets.includes(text)) shown.add(text);
    }
    const values = new Set([...this.factValues, ...[...hidden].filter((t) => !shown.has(t))]);
    return [...values].sort((a, b) => b.length - a.length);
  }

  maskProblem(problem: Problem, secrets: readonly string[] = this.secretTexts()): Problem {
    let message = problem.message;
    const unparsed = this.unparsed.find((u) => u.file === problem.file);
    if (unparsed) message = maskQuoted(message, unparsed.text);
    return { ...problem, message: maskText(message, secrets) };
  }

  /** The error with its problems masked; anything else as it is. */
  masked(e: unknown): unknown {
    if (!(e instanceof UserError)) return e;
    const secrets = this.secretTexts();
    return new UserError(e.problems.map((p) => this.maskProblem(p, secrets)));
  }
}

/** A value as it is, and as a message quoting it in JSON's escapes shows it (`a\"b`, `x\n`). */
function forms(value: string): string[] {
  if (value === '') return [];
  const escaped = JSON.stringify(value).slice(1, -1);
  return escaped === value ? [value] : [value, escaped];
}

/** Each quoted fragment of the message that holds a letter or digit and is found in the text: hidden. */
function maskQuoted(message: string, text: string): string {
  return message.replace(QUOTED, (whole, inner: string) => (HAS_WORD.test(inner) && (text.includes(inner) || text.includes(unescaped(inner))) ? `"${SENSITIVE}"` : whole));
}

function unescaped(inner: string): string {
  try {
    return JSON.parse(`"${inner}"`) as string;
  } catch {
    return inner;
  }
}
