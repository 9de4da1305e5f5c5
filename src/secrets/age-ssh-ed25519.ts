// age's ssh-ed25519 recipient type, read in process: an OpenSSH ed25519 private key without a
// passphrase (a host's /etc/ssh/ssh_host_ed25519_key) unwraps the file key of the `ssh-ed25519`
// stanzas addressed to it. The ed25519 key is used as the X25519 key it converts to, and the shared
// secret is tweaked with a value derived from the SSH public key, as the age format specifies.
import { createHash, type KeyObject } from 'node:crypto';
import { AgeFormatError, decodeBase64, hkdf, unwrapFileKey, type AgeIdentity } from './age-format.js';
import { stanzaShare, x25519, x25519PrivateKey, x25519PublicOf } from './age-x25519.js';

const LABEL = 'age-encryption.org/v1/ssh-ed25519';
const MAGIC = 'openssh-key-v1\0';
const PEM = /^-----BEGIN OPENSSH PRIVATE KEY-----\r?\n([A-Za-z0-9+/=\r\n]+)-----END OPENSSH PRIVATE KEY-----\s*$/;

export interface OpenSshKey {
  /** The public key in SSH wire form (string "ssh-ed25519", string key). */
  publicKey: Buffer;
  /** The 32-byte ed25519 seed. */
  seed: Buffer;
}

/** Reads SSH wire strings (uint32 length, bytes) one after the other. */
function wireReader(buf: Buffer) {
  let at = 0;
  return {
    string(): Buffer {
      if (at + 4 > buf.length) throw new AgeFormatError('the SSH key is cut short');
      const length = buf.readUInt32BE(at);
      if (at + 4 + length > buf.length) throw new AgeFormatError('the SSH key is cut short');
      at += 4 + length;
      return buf.subarray(at - length, at);
    },
    uint32(): number {
      if (at + 4 > buf.length) throw new AgeFormatError('the SSH key is cut short');
      at += 4;
      return buf.readUInt32BE(at - 4);
    },
  };
}

/**
 * An OpenSSH private key file, when it holds one unencrypted ed25519 key; undefined for any other
 * key (a passphrase, another type, another format), which the age program reads instead.
 */
export function readOpenSshEd25519(text: string): OpenSshKey | undefined {
  const m = PEM.exec(text);
  if (!m) return undefined;
  const blob = Buffer.from(m[1].replace(/\s+/g, ''), 'base64');
  if (blob.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
  const outer = wireReader(blob.subarray(MAGIC.length));
  const cipher = outer.string().toString('latin1');
  const kdf = outer.string().toString('latin1');
  outer.string(); // kdf options
  if (cipher !== 'none' || kdf !== 'none' || outer.uint32() !== 1) return undefined;
  const publicKey = outer.string();
  if (wireReader(publicKey).string().toString('latin1') !== 'ssh-ed25519') return undefined;
  const inner = wireReader(outer.string());
  if (inner.uint32() !== inner.uint32()) throw new AgeFormatError('the SSH key\'s check numbers differ (a damaged key)');
  if (inner.string().toString('latin1') !== 'ssh-ed25519') return undefined;
  const pub = inner.string();
  const secret = inner.string();
  if (pub.length !== 32 || secret.length !== 64 || !secret.subarray(32).equals(pub) || !publicKey.subarray(publicKey.length - 32).equals(pub)) {
    throw new AgeFormatError('the SSH ed25519 key is malformed');
  }
  return { publicKey: Buffer.from(publicKey), seed: Buffer.from(secret.subarray(0, 32)) };
}

/** The X25519 key an ed25519 seed converts to: the clamped first half of SHA-512(seed). */
function convertedPrivateKey(seed: Buffer): KeyObject {
  const scalar = createHash('sha512').update(seed).digest().subarray(0, 32);
  scalar[0] &= 248;
  scalar[31] &= 127;
  scalar[31] |= 64;
  const key = x25519PrivateKey(scalar);
  scalar.fill(0);
  return key;
}

export function sshEd25519Identity(key: OpenSshKey): AgeIdentity {
  const privateKey = convertedPrivateKey(key.seed);
  key.seed.fill(0);
  const ours = x25519PublicOf(privateKey);
  const tag = createHash('sha256').update(key.publicKey).digest().subarray(0, 4);
  const tweak = x25519PrivateKey(hkdf(Buffer.alloc(0), key.publicKey, LABEL));
  return {
    unwrap(stanza) {
      if (stanza.args[0] !== 'ssh-ed25519') return undefined;
      if (stanza.args.length !== 3) throw new AgeFormatError('an ssh-ed25519 stanza does not have exactly two arguments after its type');
      // The tag is the first 4 bytes of SHA-256 of the recipient's public key: not for this key.
      if (!decodeBase64(stanza.args[1], 'the tag of an ssh-ed25519 stanza', 4).equals(tag)) return undefined;
      const share = stanzaShare(stanza, 2, 'ssh-ed25519');
      const shared = x25519(tweak, x25519(privateKey, share));
      const wrappingKey = hkdf(shared, Buffer.concat([share, ours]), LABEL);
      return unwrapFileKey(wrappingKey, stanza.body);
    },
  };
}
