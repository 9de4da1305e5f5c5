// `govern versioncmp A B`: compares two versions the way the pkg runner does.
import { UserError } from '../../shared/errors.js';
import { compareVersions, isVersionScheme, VERSION_SCHEMES } from '../../shared/version/index.js';
import { out, type Command } from '../command.js';
import { helpOption } from '../common-options.js';
import { optionValue } from '../options.js';

export const versioncmpCommand: Command = {
  name: 'versioncmp',
  usage: 'govern versioncmp [--scheme debian|rpm|generic] [--ignore-trailing-zeroes] A B',
  summary: 'compare two versions: prints -1 (A older), 0 (same) or 1 (A newer)',
  details:
    'Schemes: debian (Debian Policy, as dpkg --compare-versions), rpm (rpmvercmp with epoch and release),\n' +
    'generic (Puppet-style, the default). --ignore-trailing-zeroes (generic only) makes 1.0.0 equal 1.0.\n' +
    'An invalid version is an error (exit 1).',
  options: [
    { name: 'scheme', value: true, placeholder: 'SCHEME', help: 'debian, rpm or generic (default generic)' },
    { name: 'ignore-trailing-zeroes', help: 'generic scheme: ignore trailing .0 segments' },
    helpOption,
  ],
  async run(args) {
    if (args.positional.length !== 2) throw new UserError(`usage: ${this.usage}`);
    const scheme = optionValue(args, 'scheme') ?? 'generic';
    if (!isVersionScheme(scheme)) throw new UserError(`--scheme must be one of ${VERSION_SCHEMES.join(', ')}, not "${scheme}"`);
    const [a, b] = args.positional;
    await out(`${compareVersions(scheme, a, b, { ignoreTrailingZeroes: args.flags.has('ignore-trailing-zeroes') })}\n`);
    return 0;
  },
};
