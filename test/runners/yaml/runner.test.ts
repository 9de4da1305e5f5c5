// The real runners/yaml against real files in a temporary directory, in both runner modes: every
// row of the decision table of docs/yaml.md (noop, real run, second run), comments, order and every
// line the change is not about kept byte for byte, and what every edit runner refuses or keeps.
import { MODES } from '../../support/runner-modes.js';
import { commonTests, rowTests, type Row } from '../edit-rows.js';

const PORT = ['key=server/port', 'value=8080'];
const DOC = '# the app\nserver:\n    port: 80   # the port\n    host: "a"\n\n# who may call\nclients:\n  - web\n  - cron\nlevel: info\n';

function rows(F: string): Row[] {
  return [
    { row: 'present, the value there (a number): nothing to do', before: 'server:\n  port: 8080\n', args: PORT, message: 'server/port up to date' },
    { row: 'present, another value: replaced in place, its comment and every other line kept', before: DOC, args: PORT, message: 'set server/port', after: DOC.replace('port: 80 ', 'port: 8080 ') },
    { row: 'present, a quoted string stays quoted', before: DOC, args: ['key=server/host', 'value=b'], message: 'set server/host', after: DOC.replace('"a"', '"b"') },
    {
      row: 'present, a missing key: added after its map\'s last entry, indented as the map is',
      before: DOC,
      args: ['key=server/tls/cert', 'value=/etc/ssl/app.pem'],
      message: 'added server/tls/cert',
      after: DOC.replace('host: "a"\n', 'host: "a"\n    tls:\n      cert: /etc/ssl/app.pem\n'),
    },
    { row: 'present, a new top-level key: at the end', before: DOC, args: ['key=debug', 'value=false'], message: 'added debug', after: `${DOC}debug: false\n` },
    { row: 'present, "yes" as a string: quoted where YAML would read it otherwise', before: 'a: 1\n', args: ['key=a', 'value=true', 'type=string'], message: 'set a', after: 'a: "true"\n' },
    { row: 'present, a list item', before: DOC, args: ['key=clients/1', 'value=batch'], message: 'set clients/1', after: DOC.replace('- cron', '- batch') },
    { row: 'present, no file: created with the value alone', args: PORT, message: `created ${F} with the key server/port`, after: 'server:\n  port: 8080\n' },
    { row: 'present, inside a value that is not a map: refused', before: 'server: x\n', args: PORT, message: 'server holds a string, not a map: port cannot be set inside it', error: true },
    {
      row: 'a document that does not parse is refused, never replaced',
      before: 'server:\n  port: [80\nlevel: info\n',
      args: PORT,
      message: `${F} is not a valid YAML document (Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 1); govern does not replace a document it cannot read`,
      error: true,
    },
    { row: 'a duplicate key is refused', before: 'a: 1\na: 2\n', args: ['key=a', 'value=3'], message: `${F} is not a valid YAML document (Map keys must be unique at line 2, column 1); govern does not replace a document it cannot read`, error: true },
    { row: 'absent, the key there: its line goes, the comments stay', before: DOC, args: ['key=server/port', 'ensure=absent'], message: 'removed server/port', after: DOC.replace('    port: 80   # the port\n', '') },
    { row: 'absent, a map with its lines', before: DOC, args: ['key=clients', 'ensure=absent'], message: 'removed clients', after: DOC.replace('clients:\n  - web\n  - cron\n', '') },
    { row: 'absent, not there: nothing to do', before: DOC, args: ['key=server/tls', 'ensure=absent'], message: 'server/tls absent' },
  ];
}

describe('yaml runner: the decision table, real files #once', function () {
  this.timeout(120_000);
  for (const mode of MODES) {
    describe(`${mode} runner`, () => {
      rowTests('yaml', 'app port', mode, rows);
      commonTests('yaml', mode, ['key=new', 'value=1'], (key, value) => `${key}: ${value}\n`);
    });
  }
});
