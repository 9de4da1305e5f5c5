// Just enough of OpenPGP (RFC 9580) to check a repository's signing key before apt is told to trust
// it: ASCII armor undone, packets walked, and the fingerprint of each primary public key computed.
// A key fetched by URL is used only when its fingerprints are the pinned ones. Pure.
import crypto from 'node:crypto';
import { UserError } from '../../shared/errors.js';

const ARMOR_BEGIN = '-----BEGIN PGP PUBLIC KEY BLOCK-----';
const ARMOR_END = '-----END PGP PUBLIC KEY BLOCK-----';

const TAG_SECRET_KEY = 5;
const TAG_PUBLIC_KEY = 6;
const TAG_SECRET_SUBKEY = 7;

export interface KeyFile {
  /** As it will be written: armored text (apt reads it from a `.asc` file) or binary (`.gpg`). */
  armored: boolean;
  /** The fingerprints of its primary keys, upper-case hex, in file order. */
  fingerprints: string[];
}

export function isArmored(data: Buffer): boolean {
  return data.subarray(0, 4096).toString('latin1').includes(ARMOR_BEGIN);
}

/** Reads a public key file (armored or binary); `what` names it in errors ("signed_by", a URL). */
export function readKeyFile(data: Buffer, what: string): KeyFile {
  const head = data.subarray(0, 4096).toString('latin1');
  if (head.includes('-----BEGIN PGP PRIVATE KEY BLOCK-----')) throw secretKey(what);
  const armored = isArmored(data);
  const binary = armored ? dearmor(data.toString('latin1'), what) : data;
  return { armored, fingerprints: primaryFingerprints(binary, what) };
}

/** "ABCD 1234 ..." or "0xabcd1234..." as apt and gpg print them -> upper-case hex without spaces. */
export function normalizeFingerprint(text: string): string {
  return text.replace(/\s+/g, '').replace(/^0x/i, '').toUpperCase();
}

/**
 * The armor undone as apt undoes it (apt-key's dearmor), line for line, so that the keys checked are
 * the keys apt will trust: every block from a line starting -----BEGIN (whatever its type) to one
 * starting -----END, its data the lines after the block's first empty line that start with neither
 * `=` (the checksum) nor `-`, all blocks joined. A line apt would not decode is not read either: one
 * read here and not by apt could shift what follows it into another packet.
 */
function dearmor(text: string, what: string): Buffer {
  const blocks: Buffer[] = [];
  let state: 'out' | 'headers' | 'data' = 'out';
  let data: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('-----BEGIN')) {
      if (state !== 'out') throw new UserError(`${what}: an armor block begins before the one before it ends`);
      [state, data] = ['headers', []];
    } else if (line.startsWith('-----END')) {
      if (state !== 'out') blocks.push(decodeData(data, what));
      state = 'out';
    } else if (state === 'headers' && line === '') state = 'data';
    else if (state === 'data' && /^[^=-]/.test(line)) data.push(line);
  }
  if (state !== 'out') throw new UserError(`${what}: the armored key has no "${ARMOR_END}" line`);
  if (blocks.length === 0) throw new UserError(`${what}: no armor block begins at the start of a line (-----BEGIN PGP PUBLIC KEY BLOCK-----)`);
  return Buffer.concat(blocks);
}

function decodeData(lines: string[], what: string): Buffer {
  const joined = lines.join('');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(joined)) throw new UserError(`${what}: the armored key is not valid base64`);
  return Buffer.from(joined, 'base64');
}

/** Walks the packets; a secret key is refused (apt needs only the public part, and a secret must not be spread). */
function primaryFingerprints(data: Buffer, what: string): string[] {
  const fingerprints: string[] = [];
  let at = 0;
  while (at < data.length) {
    const packet = readPacket(data, at, what);
    if (packet.tag === TAG_SECRET_KEY || packet.tag === TAG_SECRET_SUBKEY) {
      throw secretKey(what);
    }
    if (packet.tag === TAG_PUBLIC_KEY) fingerprints.push(fingerprint(packet.body, what));
    at = packet.next;
  }
  if (fingerprints.length === 0) throw new UserError(`${what} holds no OpenPGP public key`);
  return fingerprints;
}

function secretKey(what: string): UserError {
  return new UserError(`${what} holds a secret key: give the public key only (gpg --armor --export KEYID)`);
}

interface Packet {
  tag: number;
  body: Buffer;
  next: number;
}

function readPacket(data: Buffer, at: number, what: string): Packet {
  const bad = () => new UserError(`${what} is not an OpenPGP key (a malformed packet at byte ${at})`);
  const header = data[at];
  if ((header & 0x80) === 0) throw bad();
  let tag: number;
  let length: number;
  let start: number;
  if (header & 0x40) {
    // The current format: one, two or five length octets.
    tag = header & 0x3f;
    const first = data[at + 1];
    if (first === undefined) throw bad();
    if (first < 192) [length, start] = [first, at + 2];
    else if (first < 224) [length, start] = [((first - 192) << 8) + (data[at + 2] ?? 0) + 192, at + 3];
    else if (first === 255) [length, start] = [data.readUInt32BE(at + 2), at + 6];
    else throw bad(); // partial lengths are for data packets, never in a key
  } else {
    // The legacy format: the length's size in the header's low bits.
    tag = (header >> 2) & 0x0f;
    const size = [1, 2, 4][header & 0x03];
    if (size === undefined) throw bad();
    start = at + 1 + size;
    if (start > data.length) throw bad();
    length = size === 1 ? data[at + 1] : size === 2 ? data.readUInt16BE(at + 1) : data.readUInt32BE(at + 1);
  }
  if (start + length > data.length) throw bad();
  return { tag, body: data.subarray(start, start + length), next: start + length };
}

/** Version 4: SHA-1 over 0x99, a two-octet length and the packet; versions 5 and 6: SHA-256 with a four-octet length. */
function fingerprint(body: Buffer, what: string): string {
  const version = body[0];
  if (version === 4) {
    const head = Buffer.from([0x99, (body.length >> 8) & 0xff, body.length & 0xff]);
    return crypto.createHash('sha1').update(head).update(body).digest('hex').toUpperCase();
  }
  if (version === 5 || version === 6) {
    const head = Buffer.alloc(5);
    head[0] = version === 5 ? 0x9a : 0x9b;
    head.writeUInt32BE(body.length, 1);
    return crypto.createHash('sha256').update(head).update(body).digest('hex').toUpperCase();
  }
  throw new UserError(`${what} holds a version ${version} key, which apt does not take`);
}
