// The hostname runner's properties, from its arguments as the description reads them. Pure.
import type { RunnerRequest, Values } from '../kit/index.js';
import type { description } from './description.js';

type Described = Values<typeof description>;

export interface HostnameProperties {
  name: string;
  apply: boolean;
  persist: boolean;
  file: string;
}

export function hostnameProperties(request: Pick<RunnerRequest<Described>, 'name' | 'values'>): HostnameProperties {
  const v = request.values;
  return { name: request.name, apply: v.apply, persist: v.persist, file: v.file };
}

/** The name a name file holds: its first line that is not a comment, trimmed (hostname(5)). */
export function nameInFile(content: string): string | undefined {
  return content.split('\n').map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('#'));
}
