// The real runners/toml against real files in a temporary directory, in both runner modes: every
// row of the decision table of docs/toml.md (noop, real run, second run), comments, order and every
// line the change is not about kept byte for byte, and what every edit runner refuses or keeps.
import { MODES } from '../../support/runner-modes.js';
import { commonTests, rowTests, type Row } from '../edit-rows.js';

const PORT = ['key=server/port', 'value=8080'];
const DOC = '# the app\ntitle = "app"   # its name\n\n[server]\n# the port\nport = 80\nhost = "a"  # the host\n\n[[backend]]\nname = "one"\n\n[[backend]]\nname = "two"\n';

function rows(F: string): Row[] {
  return [
    { row: 'present, the value there (an integer): nothing to do', before: '[server]\nport = 8080\n', args: PORT, message: 'server/port up to date' },
    { row: 'present, another value: only its bytes change', before: DOC, args: PORT, message: 'set server/port', after: DOC.replace('port = 80', 'port = 8080') },
    { row: 'present, a missing key: added at the end of its table', before: DOC, args: ['key=server/tls', 'value=true'], message: 'added server/tls', after: DOC.replace('# the host\n', '# the host\ntls = true\n') },
    { row: 'present, an item of an array of tables', before: DOC, args: ['key=backend/1/name', 'value=three'], message: 'set backend/1/name', after: DOC.replace('"two"', '"three"') },
    { row: 'present, "8080" as a string (type = "string")', before: DOC, args: [...PORT, 'type=string'], message: 'set server/port', after: DOC.replace('port = 80', 'port = "8080"') },
    { row: 'present, no file: created with the value alone', args: PORT, message: `created ${F} with the key server/port`, after: '[server]\nport = 8080\n' },
    { row: 'present, null: refused (TOML has none)', before: DOC, args: ['key=title', 'value=null', 'type=json'], message: 'title: TOML has no null: give a value, or ensure = "absent" to remove the key', error: true },
    {
      row: 'a document that does not parse is refused, never replaced (its line not quoted)',
      before: '[server]\nport = \n',
      args: PORT,
      message: `${F} is not a valid TOML document (line 2, column 1: Expected value, reached EOF); govern does not replace a document it cannot read`,
      error: true,
    },
    { row: 'absent, the key there: its line goes, the comments stay', before: DOC, args: ['key=server/host', 'ensure=absent'], message: 'removed server/host', after: DOC.replace('host = "a"  # the host\n', '') },
    { row: 'absent, not there: nothing to do', before: DOC, args: ['key=server/tls', 'ensure=absent'], message: 'server/tls absent' },
  ];
}

describe('toml runner: the decision table, real files #once', function () {
  this.timeout(120_000);
  for (const mode of MODES) {
    describe(`${mode} runner`, () => {
      rowTests('toml', 'app port', mode, rows);
      commonTests('toml', mode, ['key=new', 'value=1']);
    });
  }
});
