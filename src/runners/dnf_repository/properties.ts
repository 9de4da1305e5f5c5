// The dnf_repository runner's properties, from its arguments as the description reads them, and the
// .repo file they make. Pure.
import type { RunnerRequest, Values } from '../kit/index.js';
import type { description } from './description.js';

type Described = Values<typeof description>;

/** Where dnf reads the administrator's repositories (dnf.conf(5), reposdir). */
export const REPOS_DIR = '/etc/yum.repos.d';

export interface DnfRepositoryProperties {
  name: string;
  ensure: Described['ensure'];
  baseurl: string[];
  description: string;
  enabled: boolean;
  gpgcheck: boolean;
  gpgkey: string[];
}

export function dnfRepositoryProperties(request: Pick<RunnerRequest<Described>, 'name' | 'values'>): DnfRepositoryProperties {
  const v = request.values;
  return {
    name: request.name,
    ensure: v.ensure,
    baseurl: v.baseurl,
    description: v.description ?? request.name,
    enabled: v.enabled,
    gpgcheck: v.gpgcheck,
    gpgkey: v.gpgkey,
  };
}

/** The .repo file: one section, lists separated by spaces (dnf.conf(5)). */
export function repoContent(props: DnfRepositoryProperties): string {
  const flag = (on: boolean) => (on ? '1' : '0');
  const lines = [
    `# Written by govern (dnf_repository "${props.name}"); a change made here is undone at its next run.`,
    `[${props.name}]`,
    `name=${props.description}`,
    `baseurl=${props.baseurl.join(' ')}`,
    `enabled=${flag(props.enabled)}`,
    `gpgcheck=${flag(props.gpgcheck)}`,
  ];
  if (props.gpgkey.length > 0) lines.push(`gpgkey=${props.gpgkey.join(' ')}`);
  return `${lines.join('\n')}\n`;
}
