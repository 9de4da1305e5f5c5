// How the user and group runners pick the tool that changes the account databases: the provider
// the resource names, else the first of shadow-utils (useradd, groupadd...), then busybox's applets
// (adduser, addgroup...: Alpine), then FreeBSD's pw, whose commands are all on PATH. Reading is the
// same for all of them (getent: database.ts), but for a password hash with pw (pw usershow).
import type { ProviderContext } from '../../../shared/command-runner.js';
import { missingTools, type ProviderOption } from '../../kit/provider-choice.js';

export const ACCOUNT_PROVIDERS = ['shadow', 'busybox', 'pw'] as const;
export type AccountProviderName = (typeof ACCOUNT_PROVIDERS)[number];

/** A provider that suits the host when its commands are on PATH. */
export function accountOption<P, Props>(
  name: AccountProviderName,
  tools: readonly string[],
  create: (context: ProviderContext) => P,
): ProviderOption<P, Props> {
  return {
    name,
    tools,
    suits: (_props, context) => (missingTools(tools, context).length === 0 ? `${tools[0]} is on PATH` : undefined),
    create: (_props, context) => create(context),
  };
}
