// Options for facts of other hosts (hostfact). Filled in by the hostfact work.
import type { RemoteFactSource } from '../templates/fact-sources.js';
import type { OptionSpec, ParsedArgs } from './options.js';

export const remoteFactOptions: OptionSpec[] = [];

export function remoteFacts(_args: ParsedArgs): RemoteFactSource | undefined {
  return undefined;
}
