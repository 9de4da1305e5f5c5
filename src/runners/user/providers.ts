// The user providers, in order of preference: shadow-utils, then busybox, then pw (accounts/provider-choice.ts).
import type { ProviderContext } from '../../shared/command-runner.js';
import { chooseProvider } from '../kit/provider-choice.js';
import { accountOption, type AccountProviderName } from '../lib/accounts/provider-choice.js';
import type { UserProvider } from './provider.js';
import { shadowUserProvider } from './provider-shadow.js';
import { busyboxUserProvider } from './provider-busybox.js';
import { pwUserProvider } from './provider-pw.js';

const OPTIONS = [
  accountOption<UserProvider, unknown>('shadow', ['useradd', 'usermod', 'userdel', 'chpasswd'], (context) => shadowUserProvider(context)),
  accountOption<UserProvider, unknown>('busybox', ['adduser', 'deluser', 'addgroup', 'delgroup', 'chpasswd'], (context) => busyboxUserProvider(context)),
  accountOption<UserProvider, unknown>('pw', ['pw'], (context) => pwUserProvider(context)),
];

export function userProvider(requested: AccountProviderName | undefined, context: ProviderContext): Promise<UserProvider> {
  return chooseProvider('user account tool', OPTIONS, requested, undefined, context);
}
