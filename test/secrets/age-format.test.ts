// Decryption in process of files the real age program wrote: ssh-ed25519 and X25519 recipients,
// several at once, payloads of several chunks and none; and every altered or cut part refused with
// an error, never with part of the plain text.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { AgeFormatError, decryptAge, type AgeIdentity } from '../../src/secrets/age-format.js';
import { readIdentityFile } from '../../src/secrets/age-identity-file.js';
import { tempDir } from '../support/tmp.js';
import { ageKey, sshKey, type TestKey } from './keys.js';

const CHUNK = 64 * 1024;
const SEALED_CHUNK = CHUNK + 16;

function ageEncrypt(plain: Buffer | string, recipients: TestKey[]): Buffer {
  return execFileSync('age', ['--encrypt', ...recipients.flatMap((k) => ['--recipient', k.recipient])], { input: plain, maxBuffer: 16 * 1024 * 1024 });
}

function identities(key: TestKey): AgeIdentity[] {
  const read = readIdentityFile(key.identity);
  expect(read, `${key.identity} is read in process`).to.be.an('array');
  return read!;
}

function keys() {
  const dir = tempDir('govern-age-format-');
  return { host: sshKey(dir, 'host'), other: sshKey(dir, 'other'), alice: ageKey(dir, 'alice'), bob: ageKey(dir, 'bob') };
}

/** Where the header ends: the payload's first byte. */
function payloadStart(file: Buffer): number {
  const mac = file.indexOf('\n--- ');
  return file.indexOf(0x0a, mac + 1) + 1;
}

function refused(file: Buffer, ids: AgeIdentity[], message: RegExp, secret?: string): void {
  let error: unknown;
  try {
    decryptAge(file, ids);
  } catch (e) {
    error = e;
  }
  expect(error, 'an error, not a value').to.be.instanceOf(AgeFormatError);
  expect((error as Error).message).to.match(message);
  if (secret !== undefined) expect((error as Error).message).not.to.include(secret);
}

describe('secrets: the age format read in process #once', () => {
  it('decrypts what age encrypted to an SSH host key and age keys, each recipient of several', () => {
    const k = keys();
    const secret = 'correct horse\nbattery "staple" é ✓';
    const file = ageEncrypt(secret, [k.host, k.alice, k.bob]);
    for (const key of [k.host, k.alice, k.bob]) expect(decryptAge(file, identities(key)).toString('utf8'), key.identity).to.equal(secret);
    expect(decryptAge(ageEncrypt(secret, [k.alice]), identities(k.alice)).toString('utf8')).to.equal(secret);
    expect(decryptAge(ageEncrypt(secret, [k.host]), identities(k.host)).toString('utf8')).to.equal(secret);
  });

  it('decrypts payloads of several 64 KiB chunks, one full final chunk, and an empty plain text', () => {
    const k = keys();
    for (const size of [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 1000]) {
      const plain = randomBytes(size);
      const file = ageEncrypt(plain, [k.host, k.alice]);
      expect(decryptAge(file, identities(k.host)).equals(plain), `${size} bytes, ssh-ed25519`).to.equal(true);
      expect(decryptAge(file, identities(k.alice)).equals(plain), `${size} bytes, X25519`).to.equal(true);
    }
  });

  it('refuses a file for other keys: no identity matched', () => {
    const k = keys();
    const file = ageEncrypt('for host and alice', [k.host, k.alice]);
    refused(file, identities(k.other), /^no identity matched any of the recipients$/);
    refused(file, identities(k.bob), /^no identity matched any of the recipients$/);
  });

  it('refuses an altered header: another recipient\'s stanza (the MAC), the MAC itself, a stanza body, a small-order share', () => {
    const k = keys();
    const secret = 'header-guarded-value';
    const file = ageEncrypt(secret, [k.host, k.alice]);
    const text = file.toString('latin1');
    const ids = identities(k.host);
    const header = text.slice(0, payloadStart(file));
    const payload = file.subarray(payloadStart(file));
    const withHeader = (h: string) => Buffer.concat([Buffer.from(h, 'latin1'), payload]);
    // The X25519 stanza, alice's, changed in a way that still parses: only the MAC can tell.
    const x25519 = /-> X25519 ([A-Za-z0-9+/]{43})\n/.exec(header)!;
    const share = Buffer.from(x25519[1], 'base64');
    share[0] ^= 1;
    refused(withHeader(header.replace(x25519[1], share.toString('base64').replace(/=+$/, ''))), ids, /bad header MAC/, secret);
    const mac = /--- ([A-Za-z0-9+/]{43})\n/.exec(header)!;
    const flipped = Buffer.from(mac[1], 'base64');
    flipped[5] ^= 0x80;
    refused(withHeader(header.replace(mac[1], flipped.toString('base64').replace(/=+$/, ''))), ids, /bad header MAC/, secret);
    // The host's stanza body altered: its file key does not unwrap.
    const ssh = /-> ssh-ed25519 \S+ \S+\n([A-Za-z0-9+/]{43})\n/.exec(header)!;
    const body = Buffer.from(ssh[1], 'base64');
    body[3] ^= 1;
    refused(withHeader(header.replace(ssh[1], body.toString('base64').replace(/=+$/, ''))), ids, /^no identity matched/, secret);
    // A share of small order would make the shared secret zero: refused, as the format requires.
    refused(withHeader(header.replace(x25519[1], 'A'.repeat(43))), identities(k.alice), /small order/);
    // Not canonical base64, a cut header, not an age file at all.
    refused(withHeader(header.replace(x25519[1], `${x25519[1].slice(0, 42)}=`)), identities(k.alice), /not canonical unpadded base64/);
    refused(Buffer.from(header.slice(0, header.indexOf('\n---') + 1), 'latin1'), ids, /cut short/);
    refused(Buffer.from('hello\n'), ids, /not an age file/);
  });

  it('refuses an altered, cut or extended payload, whatever chunk it touches', () => {
    const k = keys();
    const plain = Buffer.alloc(3 * CHUNK + 100, 'plain-text-marker ');
    const file = ageEncrypt(plain, [k.host]);
    const ids = identities(k.host);
    const start = payloadStart(file);
    const flip = (at: number) => {
      const copy = Buffer.from(file);
      copy[at] ^= 1;
      return copy;
    };
    refused(flip(start + 3), ids, /chunk 1 of 4 fails authentication/, 'plain-text-marker'); // the nonce
    refused(flip(start + 16 + SEALED_CHUNK + 10), ids, /chunk 2 of 4 fails authentication/, 'plain-text-marker');
    refused(flip(file.length - 1), ids, /chunk 4 of 4 fails authentication/, 'plain-text-marker');
    // Cut inside the final chunk, at a chunk boundary (a full chunk not marked final), inside a tag.
    refused(file.subarray(0, file.length - 50), ids, /chunk 4 of 4 fails/);
    refused(file.subarray(0, start + 16 + 3 * SEALED_CHUNK), ids, /chunk 3 of 3 fails/);
    refused(file.subarray(0, start + 16 + 3 * SEALED_CHUNK + 7), ids, /ends inside a chunk/);
    refused(file.subarray(0, start + 10), ids, /payload is cut short/);
    refused(Buffer.concat([file, Buffer.from('trailing')]), ids, /chunk 4 of 4 fails/);
    // An empty final chunk after full ones (what a file of exactly 64 KiB would look like, badly written).
    const full = ageEncrypt(Buffer.alloc(CHUNK, 1), [k.host]);
    refused(Buffer.concat([full, Buffer.alloc(16)]), ids, /fails authentication|final chunk of the payload is empty/);
  });
});
