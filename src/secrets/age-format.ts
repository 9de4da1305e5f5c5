// The age file format (age-encryption.org/v1), read in process: the header's stanzas, the header
// MAC, and the payload's STREAM of ChaCha20-Poly1305 chunks. Only node:crypto; the identities that
// unwrap a stanza's file key are in age-x25519.ts and age-ssh-ed25519.ts. Nothing is returned
// until every check has passed: a damaged file yields an error, never part of its plain text.
import { createDecipheriv, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export class AgeFormatError extends Error {}

export interface Stanza {
  /** The arguments after "->", the first naming the recipient type. */
  args: string[];
  body: Buffer;
}

/** One identity of the host: the file key of a stanza addressed to it, or undefined for any other stanza. */
export interface AgeIdentity {
  unwrap(stanza: Stanza): Buffer | undefined;
  /** An X25519 identity's public key (32 bytes), which an X25519 stanza does not name. */
  x25519Public?: Buffer;
}

export interface AgeHeader {
  stanzas: Stanza[];
  /** The header up to and including "---": what the MAC covers. */
  macked: Buffer;
  mac: Buffer;
  /** The payload: the 16-byte nonce, then the encrypted chunks. */
  payload: Buffer;
}

const VERSION_LINE = 'age-encryption.org/v1';
const BASE64 = /^[A-Za-z0-9+/]*$/;
const ARGUMENT = /^[\x21-\x7e]+$/;
const BODY_COLUMNS = 64;
const FILE_KEY_BYTES = 16;
const NONCE_BYTES = 16;
const TAG_BYTES = 16;
const CHUNK_BYTES = 64 * 1024;

/** Canonical base64 without padding, as age writes it; anything else is refused. */
export function decodeBase64(text: string, what: string, bytes?: number): Buffer {
  const decoded = Buffer.from(text, 'base64');
  if (!BASE64.test(text) || decoded.toString('base64').replace(/=+$/, '') !== text) throw new AgeFormatError(`${what} is not canonical unpadded base64`);
  if (bytes !== undefined && decoded.length !== bytes) throw new AgeFormatError(`${what} is ${decoded.length} bytes, not ${bytes}`);
  return decoded;
}

/** HKDF-SHA-256 with a 32-byte output, as every key of age is derived. */
export function hkdf(ikm: Buffer, salt: Buffer, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, salt, info, 32));
}

/** ChaCha20-Poly1305 decryption; undefined when the tag does not verify (the output is then wiped). */
export function aeadOpen(key: Buffer, nonce: Buffer, sealed: Buffer): Buffer | undefined {
  if (sealed.length < TAG_BYTES) return undefined;
  const decipher = createDecipheriv('chacha20-poly1305', key, nonce, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  const out = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES));
  try {
    decipher.final();
    return out;
  } catch {
    out.fill(0);
    return undefined;
  }
}

/** A stanza's file key: its 32-byte body opened with the wrapping key and a zero nonce. */
export function unwrapFileKey(wrappingKey: Buffer, body: Buffer): Buffer | undefined {
  return aeadOpen(wrappingKey, Buffer.alloc(12), body);
}

export function parseHeader(file: Buffer): AgeHeader {
  let at = 0;
  const line = (): string => {
    const end = file.indexOf(0x0a, at);
    if (end < 0) throw new AgeFormatError('the header is cut short (a line without its end)');
    const text = file.toString('latin1', at, end);
    at = end + 1;
    return text;
  };
  const version = line();
  if (version !== VERSION_LINE) {
    throw new AgeFormatError(version.startsWith('age-encryption.org/') ? `unsupported version ${version}` : 'not an age file (no age-encryption.org/v1 line)');
  }
  const stanzas: Stanza[] = [];
  for (;;) {
    const start = at;
    const text = line();
    if (text.startsWith('-> ')) {
      const args = text.slice(3).split(' ');
      if (!args.every((arg) => ARGUMENT.test(arg))) throw new AgeFormatError('a stanza has an empty or malformed argument');
      let body = '';
      for (;;) {
        const bodyLine = line();
        if (bodyLine.length > BODY_COLUMNS || !BASE64.test(bodyLine)) throw new AgeFormatError('a stanza body line is not base64 of at most 64 columns');
        body += bodyLine;
        if (bodyLine.length < BODY_COLUMNS) break;
      }
      stanzas.push({ args, body: decodeBase64(body, 'a stanza body') });
    } else if (text.startsWith('--- ')) {
      if (stanzas.length === 0) throw new AgeFormatError('the header has no recipient stanza');
      const mac = decodeBase64(text.slice(4), 'the header MAC', 32);
      return { stanzas, macked: file.subarray(0, start + 3), mac, payload: file.subarray(at) };
    } else {
      throw new AgeFormatError('a header line is neither a stanza ("-> ") nor the MAC ("--- ")');
    }
  }
}

function verifyMac(header: AgeHeader, fileKey: Buffer): void {
  const mac = createHmac('sha256', hkdf(fileKey, Buffer.alloc(0), 'header')).update(header.macked).digest();
  if (!timingSafeEqual(mac, header.mac)) throw new AgeFormatError('bad header MAC (the header was altered, or the file key is wrong)');
}

/** The STREAM: 64 KiB chunks, nonce = 11-byte big-endian counter || 1 on the final chunk, else 0. */
function decryptPayload(payload: Buffer, fileKey: Buffer): Buffer {
  if (payload.length < NONCE_BYTES + TAG_BYTES) throw new AgeFormatError('the payload is cut short');
  const key = hkdf(fileKey, payload.subarray(0, NONCE_BYTES), 'payload');
  const sealed = payload.subarray(NONCE_BYTES);
  const chunkSize = CHUNK_BYTES + TAG_BYTES;
  const count = Math.max(1, Math.ceil(sealed.length / chunkSize));
  const chunks: Buffer[] = [];
  const refuse = (why: string): never => {
    for (const chunk of chunks) chunk.fill(0);
    throw new AgeFormatError(why);
  };
  for (let i = 0; i < count; i++) {
    const chunk = sealed.subarray(i * chunkSize, (i + 1) * chunkSize);
    const last = i === count - 1;
    if (chunk.length < TAG_BYTES) refuse('the payload ends inside a chunk (cut short?)');
    if (last && chunk.length === TAG_BYTES && i > 0) refuse('the final chunk of the payload is empty');
    const nonce = Buffer.alloc(12);
    nonce.writeUIntBE(i, 5, 6);
    nonce[11] = last ? 1 : 0;
    const plain = aeadOpen(key, nonce, chunk);
    if (plain === undefined) refuse(`payload chunk ${i + 1} of ${count} fails authentication (altered or cut short)`);
    else chunks.push(plain);
  }
  const plaintext = Buffer.concat(chunks);
  for (const chunk of chunks) chunk.fill(0);
  return plaintext;
}

/**
 * The plain text of an age file, with the first of the identities that unwraps a stanza. Stanzas
 * of other types are ignored, as the format wants; an identity refuses a malformed stanza of its
 * own type by throwing.
 */
export function decryptAge(file: Buffer, identities: readonly AgeIdentity[]): Buffer {
  const header = parseHeader(file);
  if (header.stanzas.some((s) => s.args[0] === 'scrypt')) throw new AgeFormatError('the value is encrypted with a passphrase (scrypt), not to keys');
  let fileKey: Buffer | undefined;
  for (const identity of identities) {
    for (const stanza of header.stanzas) {
      fileKey = identity.unwrap(stanza);
      if (fileKey !== undefined) break;
    }
    if (fileKey !== undefined) break;
  }
  if (fileKey === undefined) throw new AgeFormatError('no identity matched any of the recipients');
  try {
    if (fileKey.length !== FILE_KEY_BYTES) throw new AgeFormatError('the unwrapped file key is not 16 bytes');
    verifyMac(header, fileKey);
    return decryptPayload(header.payload, fileKey);
  } finally {
    fileKey.fill(0);
  }
}
