// Signed run requests: a listener honours only a request signed by one of its --allowed-keys, since
// the server's permissions cannot say who sent a message (a push consumer delivers a stream's
// messages to any subject its maker names: docs/security.md, "Run requests"). The keys are NATS user nkeys
// (ed25519; `govern fleet key FILE` makes one). What is signed names the host it is meant for and
// when it was made; the listener refuses a request for another host, one made too long ago (or too
// far ahead) by its own clock, and one it has already honoured (a replay).
import fs from 'node:fs';
import { fromPublic, fromSeed } from '@nats-io/nkeys';
import { UserError } from '../shared/errors.js';
import { trustedFile, trustedSecret } from '../shared/trust.js';
import type { RunRequest } from './run-request.js';

/** How far a signed request's time may be from the host's clock, either way. */
export const SIGNED_REQUEST_WINDOW_MS = 5 * 60_000;

const SEED = /\bSU[A-Z2-7]{56}\b/;
const PUBLIC_USER_KEY = /^U[A-Z2-7]{55}$/;

/** The bytes signed: one field a line, none of which may hold a line break (checked on parsing). */
function signedText(r: Pick<RunRequest, 'id' | 'requested_at' | 'by'> & { host: string }): Uint8Array {
  return new TextEncoder().encode(['govern run request', r.id, r.requested_at, r.by, r.host].join('\n'));
}

export type Signer = (request: RunRequest, host: string) => RunRequest;

/** Signs requests with the user nkey seed in `seedFile` (read once, now: a bad file is an error before any host is asked). */
export function requestSigner(seedFile: string): Signer {
  const trusted = trustedSecret(seedFile, 'the signing key');
  if ('refused' in trusted) throw new UserError(trusted.refused);
  let text: string;
  try {
    text = fs.readFileSync(trusted.path, 'utf8');
  } catch (e) {
    throw new UserError(`cannot read the signing key ${seedFile}: ${(e as Error).message}`);
  }
  const seed = SEED.exec(text)?.[0];
  if (seed === undefined) throw new UserError(`${seedFile}: not a user nkey seed (SU...; govern fleet key FILE writes one)`);
  const pair = fromSeed(new TextEncoder().encode(seed));
  return (request, host) => ({ ...request, host, key: pair.getPublicKey(), sig: Buffer.from(pair.sign(signedText({ ...request, host }))).toString('base64') });
}

/** The public keys of an allowed keys file: one a line, `#` comments; the file held to the rule for what decides as root. */
export function readAllowedKeys(file: string): Set<string> {
  const trusted = trustedFile(file, 'the allowed keys file');
  if ('refused' in trusted) throw new UserError(trusted.refused);
  let text: string;
  try {
    text = fs.readFileSync(trusted.path, 'utf8');
  } catch (e) {
    throw new UserError(`cannot read the allowed keys file ${file}: ${(e as Error).message}`);
  }
  const keys = new Set<string>();
  const problems: { message: string }[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') return;
    if (PUBLIC_USER_KEY.test(line)) keys.add(line);
    else problems.push({ message: `${file}:${i + 1}: not a public user nkey (U..., as govern fleet key prints)` });
  });
  if (problems.length > 0) throw new UserError(problems);
  if (keys.size === 0) throw new UserError(`${file}: no key (an empty file would refuse every request)`);
  return keys;
}

export class SignatureCheck {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly keys: Set<string>,
    private readonly host: string,
  ) {}

  /** undefined when the request may be honoured; else why not. */
  refusal(r: RunRequest, nowMs: number): string | undefined {
    if (r.sig === undefined || r.key === undefined) return 'not signed (this host accepts only requests signed by an allowed key)';
    if (!this.keys.has(r.key)) return `signed by ${r.key}, which is not an allowed key`;
    if (r.host !== this.host) return `meant for ${r.host ?? 'no host'}, not ${this.host}`;
    let good = false;
    try {
      good = fromPublic(r.key).verify(signedText({ ...r, host: this.host }), Buffer.from(r.sig, 'base64'));
    } catch {
      good = false;
    }
    if (!good) return `the signature is not ${r.key}'s`;
    const at = Date.parse(r.requested_at);
    if (!(Math.abs(nowMs - at) <= SIGNED_REQUEST_WINDOW_MS)) return `made at ${r.requested_at}, more than 5 minutes from this host's clock`;
    for (const [id, when] of this.seen) if (nowMs - when > 2 * SIGNED_REQUEST_WINDOW_MS) this.seen.delete(id);
    if (this.seen.has(r.id)) return `request ${r.id} was honoured already (a replay)`;
    this.seen.set(r.id, nowMs);
    return undefined;
  }
}
