// The group providers, in order of preference: shadow-utils, then busybox, then pw (accounts/provider-choice.ts).
import type { ProviderContext } from '../../shared/command-runner.js';
import { chooseProvider } from '../kit/provider-choice.js';
import { accountOption, type AccountProviderName } from '../lib/accounts/provider-choice.js';
import type { GroupProvider } from './provider.js';
import { shadowGroupProvider } from './provider-shadow.js';
import { busyboxGroupProvider } from './provider-busybox.js';
import { pwGroupProvider } from './provider-pw.js';

const OPTIONS = [
  accountOption<GroupProvider, unknown>('shadow', ['groupadd', 'groupmod', 'groupdel', 'gpasswd'], (context) => shadowGroupProvider(context)),
  accountOption<GroupProvider, unknown>('busybox', ['addgroup', 'delgroup'], (context) => busyboxGroupProvider(context)),
  accountOption<GroupProvider, unknown>('pw', ['pw'], (context) => pwGroupProvider(context)),
];

export function groupProvider(requested: AccountProviderName | undefined, context: ProviderContext): Promise<GroupProvider> {
  return chooseProvider('group account tool', OPTIONS, requested, undefined, context);
}
