// `govern versioncmp A B`: compares two versions the way the pkg runner does.
import { UserError } from '../../shared/errors.js';
import { compareVersions, VERSION_SCHEMES } from '../../shared/version/index.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { out } from '../../output/writers.js';
import { helpOptions } from '../common-options.js';
import { optionTable } from '../options.js';

export const versioncmpCommand = defineCommand({
  ...described('versioncmp'),
  details:
    'Schemes: debian (Debian Policy, as dpkg --compare-versions), rpm (rpmvercmp with epoch and release),\n' +
    'pacman (as pacman\'s vercmp), freebsd (as pkg version -t), generic (Puppet-style, the default). --ignore-trailing-zeroes (generic only) makes 1.0.0 equal 1.0.\n' +
    'An invalid version is an error (exit 1).',
  options: optionTable([
    { name: 'scheme', kind: 'choice', placeholder: 'SCHEME', choices: VERSION_SCHEMES, default: 'generic', help: 'how versions compare' },
    { name: 'ignore-trailing-zeroes', kind: 'flag', help: 'generic scheme: ignore trailing .0 segments' },
    ...helpOptions,
  ]),
  async run(o, operands) {
    if (operands.length !== 2) throw new UserError(`two versions are needed (usage: ${this.usage})`);
    const [a, b] = operands;
    await out(`${compareVersions(o.scheme, a, b, { ignoreTrailingZeroes: o.ignoreTrailingZeroes })}\n`);
    return 0;
  },
});
