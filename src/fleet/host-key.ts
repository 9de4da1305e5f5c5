// `govern fleet key FILE`: a new NATS user nkey for a host (or an operator): the seed, which is the
// credential, written to FILE readable by root only, and the public key printed for the server's
// configuration (docs/fleet.md, "Per-host credentials"). The seed never leaves the host.
import fs from 'node:fs';
import { UserError } from '../shared/errors.js';
import { natsKeys } from './nats.js';

export function writeHostKey(file: string): string {
  const pair = natsKeys().createUser();
  const seed = new TextDecoder().decode(pair.getSeed());
  try {
    // 'wx': an existing key is never replaced by accident (the server would still expect the old one).
    fs.writeFileSync(file, `${seed}\n`, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    throw new UserError(`cannot write the key ${file}: ${(e as Error).message}`);
  }
  return pair.getPublicKey();
}
