// age's X25519 recipient type, read in process: an identity "AGE-SECRET-KEY-1..." (Bech32, as
// age-keygen writes it) unwraps the file key of the `X25519` stanzas addressed to it. The X25519
// function itself is node:crypto's, on key objects built from the raw 32-byte values.
import { createPrivateKey, createPublicKey, diffieHellman, type KeyObject } from 'node:crypto';
import { AgeFormatError, decodeBase64, hkdf, unwrapFileKey, type AgeIdentity, type Stanza } from './age-format.js';

/** The DER prefix that makes a raw X25519 scalar a PKCS #8 key. */
const PKCS8_X25519 = Buffer.from('302e020100300506032b656e04220420', 'hex');

export function x25519PrivateKey(scalar: Buffer): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_X25519, scalar]), format: 'der', type: 'pkcs8' });
}

export function x25519PublicOf(privateKey: KeyObject): Buffer {
  return Buffer.from(createPublicKey(privateKey).export({ format: 'jwk' }).x!, 'base64url');
}

/** X25519(scalar, point); a point of small order (an all-zero result) is refused, as the format requires. */
export function x25519(privateKey: KeyObject, point: Buffer): Buffer {
  // A point as a JWK: OpenSSL imports it several times faster than as DER (SPKI), once per value.
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: point.toString('base64url') }, format: 'jwk' });
  let shared: Buffer;
  try {
    shared = diffieHellman({ privateKey, publicKey });
  } catch {
    // OpenSSL refuses to derive an all-zero secret.
    throw new AgeFormatError('a stanza\'s ephemeral share is a point of small order');
  }
  if (shared.every((byte) => byte === 0)) throw new AgeFormatError('a stanza\'s ephemeral share is a point of small order');
  return shared;
}

/** The 32-byte value of a stanza's share argument. */
export function stanzaShare(stanza: Stanza, index: number, type: string): Buffer {
  const share = decodeBase64(stanza.args[index], `the ephemeral share of an ${type} stanza`, 32);
  if (stanza.body.length !== 32) throw new AgeFormatError(`an ${type} stanza's body is ${stanza.body.length} bytes, not 32`);
  return share;
}

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values: number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= BECH32_GENERATOR[i];
  }
  return chk >>> 0;
}

/** The bytes of a Bech32 string with the given human-readable part (either case, checksum checked). */
export function bech32Decode(text: string, hrp: string): Buffer {
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) throw new AgeFormatError('a Bech32 key mixes upper and lower case');
  const lower = text.toLowerCase();
  const separator = lower.lastIndexOf('1');
  if (lower.slice(0, separator) !== hrp) throw new AgeFormatError(`not a key starting ${hrp.toUpperCase()}1`);
  const data = [...lower.slice(separator + 1)].map((ch) => BECH32_CHARSET.indexOf(ch));
  if (data.length < 6 || data.includes(-1)) throw new AgeFormatError('a Bech32 key holds a character outside its alphabet');
  const expanded = [...hrp].map((ch) => ch.charCodeAt(0) >> 5).concat([0], [...hrp].map((ch) => ch.charCodeAt(0) & 31));
  if (polymod(expanded.concat(data)) !== 1) throw new AgeFormatError('a Bech32 key\'s checksum is wrong (mistyped?)');
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const v of data.slice(0, -6)) {
    acc = (acc << 5) | v;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  if (bits >= 5 || (acc & ((1 << bits) - 1)) !== 0) throw new AgeFormatError('a Bech32 key has stray padding bits');
  return Buffer.from(bytes);
}

const X25519_INFO = 'age-encryption.org/v1/X25519';

/** An age identity line, "AGE-SECRET-KEY-1...". */
export function x25519Identity(line: string): AgeIdentity {
  const scalar = bech32Decode(line, 'age-secret-key-');
  if (scalar.length !== 32) throw new AgeFormatError(`an AGE-SECRET-KEY-1 key is ${scalar.length} bytes, not 32`);
  const privateKey = x25519PrivateKey(scalar);
  scalar.fill(0);
  const ours = x25519PublicOf(privateKey);
  return {
    x25519Public: ours,
    unwrap(stanza) {
      if (stanza.args[0] !== 'X25519') return undefined;
      if (stanza.args.length !== 2) throw new AgeFormatError('an X25519 stanza does not have exactly one argument after its type');
      const share = stanzaShare(stanza, 1, 'X25519');
      const wrappingKey = hkdf(x25519(privateKey, share), Buffer.concat([share, ours]), X25519_INFO);
      return unwrapFileKey(wrappingKey, stanza.body);
    },
  };
}
