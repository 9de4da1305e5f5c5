// Writes govern's man page or bash completion to stdout, for the installation `make install` (or
// the Debian package) is making: `node dist/src/manual/main.js man|bash-completion --prefix P --sysconfdir S`.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { governVersion, installedDirs } from '../config/paths.js';
import { bashCompletion } from './bash-completion.js';
import { manualCommands } from './cli-table.js';
import { manPage } from './man-page.js';

const USAGE = 'usage: node dist/src/manual/main.js man|bash-completion [--prefix DIR] [--sysconfdir DIR]\n';

function main(argv: string[]): string | undefined {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { prefix: { type: 'string' }, sysconfdir: { type: 'string' } } });
  const prefix = values.prefix ?? '/usr/local';
  const sysconfdir = values.sysconfdir ?? path.join(prefix, 'etc');
  switch (positionals.join(' ')) {
    case 'man':
      return manPage({
        commands: manualCommands(),
        version: governVersion(),
        dirs: installedDirs({ libDir: path.join(prefix, 'lib', 'govern'), sysconfdir }),
        docDir: path.join(prefix, 'share', 'doc', 'govern'),
      });
    case 'bash-completion':
      return bashCompletion(manualCommands());
  }
  return undefined;
}

const text = main(process.argv.slice(2));
if (text === undefined) {
  process.stderr.write(USAGE);
  process.exitCode = 2;
} else process.stdout.write(text);
