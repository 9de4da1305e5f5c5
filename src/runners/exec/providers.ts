// The exec providers. The resource always names one (`provider` defaults to posix).
import type { ProviderContext } from '../../shared/command-runner.js';
import { chooseProvider, type ProviderOption } from '../kit/provider-choice.js';
import type { ExecProperties } from './properties.js';
import type { ExecProvider } from './provider.js';
import { posixProvider } from './provider-posix.js';
import { shellProvider } from './provider-shell.js';

export const EXEC_PROVIDERS: ProviderOption<ExecProvider, ExecProperties>[] = [
  { name: 'posix', tools: [], suits: () => 'the default', create: (_props, context) => posixProvider(context) },
  { name: 'shell', tools: [], suits: () => undefined, create: (_props, context) => shellProvider(context) },
];

export function execProvider(properties: ExecProperties, context: ProviderContext): Promise<ExecProvider> {
  return chooseProvider('command runner', EXEC_PROVIDERS, properties.provider, properties, context);
}
