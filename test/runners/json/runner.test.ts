// The real runners/json against real files in a temporary directory, in both runner modes: every
// row of the decision table of docs/json.md (noop, real run, second run), every byte the change is
// not about kept, and what every edit runner refuses or keeps (edit-rows.ts).
import { MODES } from '../../support/runner-modes.js';
import { commonTests, rowTests, type Row } from '../edit-rows.js';

const PORT = ['key=server/port', 'value=8080'];
const DOC = '{\n    "name": "app",\n    "server": {\n        "port": 80,\n        "hosts": ["a", "b"]\n    }\n}\n';

function rows(F: string): Row[] {
  return [
    { row: 'present, the value there (a number): nothing to do', before: '{"server": {"port": 8080}}', args: PORT, message: 'server/port up to date' },
    { row: 'present, another value: only its bytes change', before: DOC, args: PORT, message: 'set server/port', after: DOC.replace('80,', '8080,') },
    { row: 'present, "8080" as a string (type = "string") where a number is: set', before: '{"server": {"port": 8080}}\n', args: [...PORT, 'type=string'], message: 'set server/port', after: '{"server": {"port": "8080"}}\n' },
    {
      row: 'present, a missing key: added to its map, indented as the document is',
      before: DOC,
      args: ['key=server/tls', 'value=true'],
      message: 'added server/tls',
      after: DOC.replace('["a", "b"]\n', '["a", "b"],\n        "tls": true\n'),
    },
    {
      row: 'present, maps on the way made; a map value ({ ... } in HCL) is a map',
      before: '{\n\t"a": 1\n}\n',
      args: ['key=b/c', 'value={"d":[1,"x"]}'],
      message: 'added b/c',
      after: '{\n\t"a": 1,\n\t"b": {\n\t\t"c": {\n\t\t\t"d": [\n\t\t\t\t1,\n\t\t\t\t"x"\n\t\t\t]\n\t\t}\n\t}\n}\n',
    },
    { row: 'present, a list item by its index', before: DOC, args: ['key=server/hosts/1', 'value=c'], message: 'set server/hosts/1', after: DOC.replace('"b"]', '"c"]') },
    { row: 'present, type = "json": a list', before: '{"a": 1}\n', args: ['key=a', 'value=[1, null]', 'type=json'], message: 'set a', after: '{"a": [\n    1,\n    null\n  ]}\n' },
    { row: 'present, no file: created with the value alone', args: PORT, message: `created ${F} with the key server/port`, after: '{\n  "server": {\n    "port": 8080\n  }\n}\n' },
    { row: 'present, inside a value that is not a map: refused', before: '{"server": "x"}\n', args: PORT, message: 'server holds a string, not a map: port cannot be set inside it', error: true },
    { row: 'present, an index past the list\'s end: refused', before: DOC, args: ['key=server/hosts/5', 'value=c'], message: 'server/hosts is a list of 2 items: "5" is not the index of one of them', error: true },
    {
      row: 'a document that does not parse is refused, never replaced',
      before: '{"server": {"port": 80,}}\n',
      args: PORT,
      message: `${F} is not a valid JSON document (line 1, column 24: PropertyNameExpected); govern does not replace a document it cannot read`,
      error: true,
    },
    { row: 'JSON with a comment is not JSON: refused', before: '// c\n{}\n', args: PORT, message: `${F} is not a valid JSON document (line 1, column 1: InvalidCommentToken); govern does not replace a document it cannot read`, error: true },
    { row: 'absent, the key there: removed, the rest kept', before: DOC, args: ['key=name', 'ensure=absent'], message: 'removed name', after: '{\n    "server": {\n        "port": 80,\n        "hosts": ["a", "b"]\n    }\n}\n' },
    {
      row: 'absent, a list item by its index: refused',
      before: DOC,
      args: ['key=server/hosts/0', 'ensure=absent'],
      message: 'server/hosts/0 names a list item by its index: ensure = "absent" cannot remove one (the next item takes its index); set the list whole instead',
      error: true,
    },
    { row: 'absent, not there: nothing to do', before: DOC, args: ['key=server/tls', 'ensure=absent'], message: 'server/tls absent' },
    { row: 'absent, no file: nothing to do', args: ['key=a', 'ensure=absent'], message: `${F} does not exist: the key a is absent` },
  ];
}

describe('json runner: the decision table, real files #once', function () {
  this.timeout(120_000);
  for (const mode of MODES) {
    describe(`${mode} runner`, () => {
      rowTests('json', 'app port', mode, rows);
      commonTests('json', mode, ['key=new', 'value=1'], (key, value) => `{"${key}": ${value}}\n`);
    });
  }
});
