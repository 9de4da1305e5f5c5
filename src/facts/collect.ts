// `govern facts [NAME...]`: the facts asked for (every one without names), from this host or another,
// with what failed as warnings, in the order they were met: a failed fact is left out, never fatal.
import fs from 'node:fs';
import type { LocalFacts } from './local-facts.js';
import type { RemoteFacts } from './remote/remote-facts.js';
import { UserError } from '../shared/errors.js';

export interface Collected {
  values: Map<string, string>;
  /** One line each, for stderr. */
  warnings: string[];
  failed: boolean;
}

export async function collectLocal(facts: LocalFacts, wanted: string[]): Promise<Collected> {
  const warnings = [...(await facts.problems())];
  const names = wanted.length > 0 ? wanted : await facts.names();
  await facts.load(names);
  const values = new Map<string, string>();
  for (const name of names) {
    const result = facts.peek(name)!;
    if (result.ok) values.set(name, result.value);
    else warnings.push(`fact ${name}: ${result.error}`);
  }
  return { values, warnings, failed: warnings.length > 0 };
}

export async function collectRemote(remote: RemoteFacts, host: string, names: string[]): Promise<Collected> {
  const answer = await remote.ask(host, names); // an invalid host or fact name is a UserError
  if (!answer.reached) throw new UserError(`could not get facts from ${host}: ${answer.error}`);
  const warnings = [...answer.warnings.map((line) => `${host}: ${line}`), ...[...answer.failed].map(([name, reason]) => `${host}: fact ${name}: ${reason}`)];
  return { values: answer.values, warnings, failed: answer.failed.size > 0 || answer.warnings.length > 0 };
}

/** A path rather than a fact name: fact names are relative and never start with "." (os/name). */
export function isTreePath(arg: string): boolean {
  if (!(arg.startsWith('/') || arg.startsWith('./') || arg.startsWith('../') || arg === '.' || arg === '..' || arg.endsWith('/'))) return false;
  try {
    fs.statSync(arg);
    return true;
  } catch {
    return false;
  }
}
