// govern's ini runner against Ansible's community.general.ini_file on copies of the same files
// (ansible-diff.ts): the same bytes, or a difference docs/ini.md gives the reason for.
import { ansibleTests, type AnsibleCase } from '../ansible-diff.js';

const PHP = { section: 'PHP', option: 'memory_limit', value: '256M' };
const G = ['section=PHP', 'key=memory_limit', 'value=256M'];

const cases: AnsibleCase[] = [
  { case: 'a value replaced in its section, the rest kept', before: '; php\n[PHP]\nengine = On\nmemory_limit = 128M\n\n[Date]\ndate.timezone = UTC\n', ansible: PHP, govern: G },
  { case: 'a key added after the section\'s last key, before its blank lines', before: '[PHP]\nengine = On\n\n[Date]\nx = 1\n', ansible: PHP, govern: G },
  { case: 'a section added at the end', before: '[Date]\nx = 1\n', ansible: PHP, govern: G },
  { case: 'a key before the first section', before: 'a = 1\n\n[s]\nb = 2\n', ansible: { option: 'UMASK', value: '027' }, govern: ['key=UMASK', 'value=027'] },
  { case: 'duplicates: the line holding the value stays', before: '[PHP]\nmemory_limit = 1M\nx = 2\nmemory_limit = 256M\n', ansible: PHP, govern: G },
  { case: 'duplicates: the first takes the value', before: '[PHP]\nmemory_limit = 1M\nmemory_limit = 2M\n', ansible: PHP, govern: G },
  { case: 'no_extra_spaces', before: '[s]\nk=1\n', ansible: { section: 's', option: 'k', value: '2', no_extra_spaces: true }, govern: ['section=s', 'key=k', 'value=2', 'no_extra_spaces=true'] },
  { case: 'absent: every line of the key in the section', before: '[PHP]\nmemory_limit = 1\nx = 1\nmemory_limit=2\n[B]\nmemory_limit = 3\n', ansible: { section: 'PHP', option: 'memory_limit', state: 'absent' }, govern: ['section=PHP', 'key=memory_limit', 'ensure=absent'] },
  { case: 'the value there: nothing changes', before: '[PHP]\nmemory_limit = 256M\n', ansible: PHP, govern: G },
  {
    case: 'a commented-out key',
    before: '[PHP]\n;memory_limit = 128M\nengine = On\n',
    ansible: PHP,
    govern: G,
    differs: { ansible: '[PHP]\nmemory_limit = 256M\nengine = On\n', why: 'govern never changes a comment' },
  },
  { case: 'CRLF line breaks', before: '[PHP]\r\nmemory_limit = 1\r\n', ansible: PHP, govern: G, differs: { ansible: '[PHP]\nmemory_limit = 256M\n', why: 'govern keeps each line\'s break' } },
  { case: 'the value there with other spacing', before: '[PHP]\nmemory_limit=256M\n', ansible: PHP, govern: G, differs: { ansible: '[PHP]\nmemory_limit = 256M\n', why: 'the value is what govern manages, not the spacing' } },
  { case: 'no newline at the end, nothing else to change', before: '[PHP]\nmemory_limit = 256M', ansible: PHP, govern: G, differs: { ansible: '[PHP]\nmemory_limit = 256M\n', why: 'govern leaves a file it has nothing to change in alone' } },
  { case: 'a new file', ansible: PHP, govern: G, differs: { ansible: '\n[PHP]\nmemory_limit = 256M\n', why: 'govern does not start a new file with a blank line' } },
];

describe('ini runner against Ansible\'s ini_file #once', function () {
  this.timeout(120_000);
  ansibleTests('community.general.ini_file', 'ini', 'php memory', cases);
});
