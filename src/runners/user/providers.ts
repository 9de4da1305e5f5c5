// The user providers, in order of preference: shadow-utils, then busybox, then pw (accounts/provider-choice.ts).
import type { ProviderContext } from '../../shared/command-runner.js';
import { chooseProvider } from '../kit/provider-choice.js';
import { accountOption, type AccountProviderName } from '../lib/accounts/provider-choice.js';
import type { UserProvider } from './provider.js';
import { ShadowUserProvider } from './provider-shadow.js';
import { BusyboxUserProvider } from './provider-busybox.js';
import { PwUserProvider } from './provider-pw.js';

const OPTIONS = [
  accountOption<UserProvider, unknown>('shadow', ['useradd', 'usermod', 'userdel', 'chpasswd'], (context) => new ShadowUserProvider(context)),
  accountOption<UserProvider, unknown>('busybox', ['adduser', 'deluser', 'addgroup', 'delgroup', 'chpasswd'], (context) => new BusyboxUserProvider(context)),
  accountOption<UserProvider, unknown>('pw', ['pw'], (context) => new PwUserProvider(context)),
];

export function userProvider(requested: AccountProviderName | undefined, context: ProviderContext): Promise<UserProvider> {
  return chooseProvider('user account tool', OPTIONS, requested, undefined, context);
}
