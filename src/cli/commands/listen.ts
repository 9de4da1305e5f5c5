// `govern listen`: run by govern-listen.service beside the timer; starts the host's usual run when
// `govern fleet run` asks (src/fleet/listener.ts). Its name in the fleet is --fleet-name, else its
// fqdn fact, as when it publishes.
import { listen } from '../../fleet/listener.js';
import { readAllowedKeys, SignatureCheck } from '../../fleet/request-signature.js';
import { UserError } from '../../shared/errors.js';
import { onInterrupt } from '../../shared/interrupt.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { note, warn } from '../../output/writers.js';
import { factsOptions, helpOptions } from '../common-options.js';
import { fleetHostName, fleetOptions, fleetSettings } from '../fleet-options.js';
import { optionTable } from '../options.js';

const options = optionTable([
  {
    name: 'run-command',
    kind: 'command',
    placeholder: 'COMMAND',
    env: 'GOVERN_LISTEN_RUN_COMMAND',
    default: 'systemctl --no-block start govern.service',
    help: 'what starts a run on request; it returns once the run is started, and its failure is the answer',
  },
  {
    name: 'allowed-keys',
    kind: 'text',
    placeholder: 'FILE',
    env: 'GOVERN_LISTEN_ALLOWED_KEYS',
    help: "the operators' public nkeys (one a line): only a request signed by one of them is honoured (required)",
  },
  ...fleetOptions,
  ...factsOptions,
  ...helpOptions,
]);

export const listenCommand = defineCommand({
  ...described('listen'),
  details:
    'Waits on the subject govern.run.NAME of the fleet\'s NATS server (NAME: --fleet-name, else the fqdn\n' +
    'fact), starts --run-command for each request and answers once it has (or with its failure);\n' +
    'reconnects when the server goes away. A request is honoured only when it is signed by one of the\n' +
    'keys of --allowed-keys, for this host, within 5 minutes of its clock, and not seen before\n' +
    '(docs/fleet.md): the server\'s permissions alone cannot say who sent a message.\n' +
    'Runs until SIGTERM; exit status 1 when it cannot start listening or the server refuses its\n' +
    'credentials (so that its unit restarts it).',
  options,
  async run(o, operands) {
    if (operands.length > 0) throw new UserError(`govern listen takes no operands (usage: ${this.usage})`);
    const settings = fleetSettings(o);
    if (settings === undefined) throw new UserError('no fleet is configured: give --fleet-url or set GOVERN_FLEET_URL');
    const host = await fleetHostName(o);
    if (o.allowedKeys === undefined) {
      throw new UserError("govern listen needs --allowed-keys FILE (GOVERN_LISTEN_ALLOWED_KEYS): the operators' public keys, whose signed requests alone it honours (docs/fleet.md)");
    }
    const signatures = new SignatureCheck(readAllowedKeys(o.allowedKeys), host);
    const listening = await listen({ settings, host, runCommand: o.runCommand, log: { info: note, warn }, signatures });
    // Stopped through govern's own interruption handling (cli/main.ts), which waits for this before it exits.
    onInterrupt(() => listening.stop());
    const refused = await listening.closed;
    if (refused !== undefined) throw new UserError(`the fleet at ${settings.url} closed the connection: ${refused.message}`);
    return 0;
  },
});
