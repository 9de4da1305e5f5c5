// `govern backups [list] [PATH]` and `govern backups restore PATH [--at ID]`: the copies backup = true
// keeps under VAR_DIR/backup, listed or put back (record/backups.ts).
import { backupLines, listBackups, restoreBackup } from '../../record/backups.js';
import { UserError } from '../../shared/errors.js';
import { terminalLine } from '../../shared/terminal-text.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { out } from '../../output/writers.js';
import { helpOptions, varDirOptions } from '../common-options.js';
import { optionTable } from '../options.js';

export const backupsCommand = defineCommand({
  ...described('backups'),
  details:
    'The copies of the content a change replaced, kept for each file with backup = true (file, ini, block)\n' +
    'in VAR_DIR/backup/PATH/TIME, the newest 5 per file. list (the default) prints a line per copy:\n' +
    'the file, the copy\'s ID (its time), the time and the size; with PATH, those of that file or of the\n' +
    'files under that directory. restore puts the newest copy (or --at ID) back at PATH, atomically, with\n' +
    'the owner, group and mode the file had; it refuses a PATH that is, or goes through, a symbolic link.',
  options: optionTable([
    { name: 'at', kind: 'text', placeholder: 'ID', help: 'restore this copy (an ID govern backups lists) rather than the newest' },
    ...varDirOptions,
    ...helpOptions,
  ]),
  async run(o, operands) {
    const [verb, ...rest] = operands[0] === 'list' || operands[0] === 'restore' ? operands : ['list', ...operands];
    if (verb === 'restore') {
      if (rest.length !== 1) throw new UserError(`govern backups restore takes one PATH (usage: ${this.usage})`);
      await out(`${terminalLine(restoreBackup(o.varDir, rest[0], o.at))}\n`);
      return 0;
    }
    if (rest.length > 1 || o.at !== undefined) throw new UserError(`govern backups list takes at most one PATH, and no --at (usage: ${this.usage})`);
    await out(backupLines(listBackups(o.varDir, rest[0])).map((line) => `${terminalLine(line)}\n`).join(''));
    return 0;
  },
});
