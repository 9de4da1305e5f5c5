// The authorized_key runner's properties, from its arguments as the description reads them. Pure.
import type { RunnerRequest, Values } from '../kit/index.js';
import type { description } from './description.js';

type Described = Values<typeof description>;

export interface AuthorizedKeyProperties {
  user: string;
  ensure: Described['ensure'];
  key: string;
  /** present: the line as sshd reads it: [options] type key comment. */
  line?: string;
  exclusive: boolean;
}

export function authorizedKeyProperties(request: Pick<RunnerRequest<Described>, 'name' | 'values'>): AuthorizedKeyProperties {
  const v = request.values;
  const comment = v.comment ?? request.name;
  const options = v.options.length > 0 ? `${v.options.join(',')} ` : '';
  const line = v.ensure === 'present' ? `${options}${v.type} ${v.key}${comment !== '' ? ` ${comment}` : ''}` : undefined;
  return { user: v.user, ensure: v.ensure, key: v.key!, line, exclusive: v.exclusive };
}
