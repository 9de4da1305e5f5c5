// The real runners/ini against real files in a temporary directory, in both runner modes: every row
// of the decision table of docs/ini.md (noop, real run, second run), and what every edit runner
// refuses or keeps (edit-rows.ts).
import { MODES } from '../../support/runner-modes.js';
import { commonTests, rowTests, type Row } from '../edit-rows.js';

const PHP = ['section=PHP', 'key=memory_limit', 'value=256M'];

function rows(F: string): Row[] {
  return [
    { row: 'present, the key holds the value', before: '[PHP]\nmemory_limit = 256M\n', args: PHP, message: 'memory_limit up to date in [PHP]' },
    { row: 'present, the key holds the value with other spacing: left as it is', before: '[PHP]\n  memory_limit\t=256M\n', args: PHP, message: 'memory_limit up to date in [PHP]' },
    { row: 'present, another value: the line rewritten, its indentation kept', before: '; php\n[PHP]\n  memory_limit=128M\nx = 1\n', args: PHP, message: 'set memory_limit in [PHP] (line 3)', after: '; php\n[PHP]\n  memory_limit = 256M\nx = 1\n' },
    {
      row: 'present, duplicates: the line holding the value stays, the others go',
      before: '[PHP]\nmemory_limit = 1M\nx = 1\nmemory_limit = 256M\nmemory_limit=2M\n',
      args: PHP,
      message: 'removed the duplicates of memory_limit in [PHP] (lines 2 and 5)',
      after: '[PHP]\nx = 1\nmemory_limit = 256M\n',
    },
    {
      row: 'present, duplicates none holding the value: the first takes it',
      before: '[PHP]\nmemory_limit = 1M\nmemory_limit = 2M\n',
      args: PHP,
      message: 'set memory_limit in [PHP] (line 2), removed the duplicate of memory_limit in [PHP] (line 3)',
      after: '[PHP]\nmemory_limit = 256M\n',
    },
    {
      row: 'present, a missing key goes after the section\'s last key; comments and the other section kept',
      before: '[PHP]\nengine = On\n;memory_limit = 128M\n\n[Date]\nmemory_limit = 1\n',
      args: PHP,
      message: 'added memory_limit in [PHP] (line 3)',
      after: '[PHP]\nengine = On\nmemory_limit = 256M\n;memory_limit = 128M\n\n[Date]\nmemory_limit = 1\n',
    },
    { row: 'present, an empty section: the key after its header', before: '[PHP]\n; nothing\n[Date]\n', args: PHP, message: 'added memory_limit in [PHP] (line 2)', after: '[PHP]\nmemory_limit = 256M\n; nothing\n[Date]\n' },
    { row: 'present, no such section: appended', before: '[Date]\nx = 1', args: PHP, message: 'added [PHP] with memory_limit at the end', after: '[Date]\nx = 1\n[PHP]\nmemory_limit = 256M\n' },
    { row: 'present, no section: the keys before the first section', before: 'a = 1\n\n[s]\nUMASK = 1\n', args: ['key=UMASK', 'value=027'], message: 'added UMASK before the first section (line 2)', after: 'a = 1\nUMASK = 027\n\n[s]\nUMASK = 1\n' },
    { row: 'present, no section, no keys before the first: at the top', before: '# c\n[s]\n', args: ['key=UMASK', 'value=027', 'no_extra_spaces=true'], message: 'added UMASK before the first section (line 1)', after: 'UMASK=027\n# c\n[s]\n' },
    { row: 'present, no section, the key there with another value', before: 'UMASK=022\n[s]\n', args: ['key=UMASK', 'value=027', 'no_extra_spaces=true'], message: 'set UMASK before the first section (line 1)', after: 'UMASK=027\n[s]\n' },
    { row: 'present, a key without "=" is the key with an empty value', before: '[PHP]\nmemory_limit\n', args: PHP, message: 'set memory_limit in [PHP] (line 2)', after: '[PHP]\nmemory_limit = 256M\n' },
    { row: 'present, a longer key of the same start is another key', before: '[PHP]\nmemory_limit_x = 1\n', args: PHP, message: 'added memory_limit in [PHP] (line 3)', after: '[PHP]\nmemory_limit_x = 1\nmemory_limit = 256M\n' },
    { row: 'present, missing file, create (the default)', args: PHP, message: `created ${F} with the key`, after: '[PHP]\nmemory_limit = 256M\n' },
    { row: 'present, missing file, create = false', args: [...PHP, 'create=false'], error: true, message: `${F} does not exist (set create = true to create it with the key)`, noopMessage: `Would have added the key to ${F}, which does not exist yet` },
    { row: 'present, an empty file', before: '', args: PHP, message: `added [PHP] with memory_limit at the end`, after: '[PHP]\nmemory_limit = 256M\n' },
    { row: 'absent, every line of the key in the section goes, comments and other sections kept', before: '[PHP]\nmemory_limit = 1\n;memory_limit = 2\nmemory_limit=3\n[B]\nmemory_limit = 4\n', args: ['section=PHP', 'key=memory_limit', 'ensure=absent'], message: 'removed memory_limit in [PHP] (lines 2 and 4)', after: '[PHP]\n;memory_limit = 2\n[B]\nmemory_limit = 4\n' },
    { row: 'absent, no such key', before: '[PHP]\nx = 1\n', args: ['section=PHP', 'key=memory_limit', 'ensure=absent'], message: 'memory_limit absent in [PHP]' },
    { row: 'absent, no such section', before: 'x = 1\n', args: ['section=PHP', 'key=memory_limit', 'ensure=absent'], message: 'memory_limit absent (no section [PHP])' },
    { row: 'absent, missing file', args: ['section=PHP', 'key=memory_limit', 'ensure=absent'], message: `${F} does not exist: the key is absent` },
    // Line breaks and marks kept: CRLF, a last line without a newline, a byte order mark.
    { row: 'CRLF, a key replaced and one added keep CRLF', before: '[PHP]\r\nmemory_limit = 1\r\n[B]\r\n', args: PHP, message: 'set memory_limit in [PHP] (line 2)', after: '[PHP]\r\nmemory_limit = 256M\r\n[B]\r\n' },
    { row: 'CRLF, a key added with CRLF', before: '[PHP]\r\nx = 1\r\n', args: PHP, message: 'added memory_limit in [PHP] (line 3)', after: '[PHP]\r\nx = 1\r\nmemory_limit = 256M\r\n' },
    { row: 'a last line without a newline stays so while it stays last', before: '[PHP]\nmemory_limit = 1\nx = 1', args: PHP, message: 'set memory_limit in [PHP] (line 2)', after: '[PHP]\nmemory_limit = 256M\nx = 1' },
    { row: 'a last line without a newline, nothing to change: untouched', before: '[PHP]\nmemory_limit = 256M', args: PHP, message: 'memory_limit up to date in [PHP]' },
    { row: 'a byte order mark is kept, and not part of the first key', before: '\uFEFFUMASK = 1\n', args: ['key=UMASK', 'value=2'], message: 'set UMASK before the first section (line 1)', after: '\uFEFFUMASK = 2\n' },
  ];
}

describe('ini runner: the decision table, real files #once', function () {
  this.timeout(120_000);
  for (const mode of MODES) {
    describe(`${mode} runner`, () => {
      rowTests('ini', 'php memory', mode, rows);
      commonTests('ini', mode, ['key=new', 'value=1']);
    });
  }
});
