// The flow of src/, written once (docs/architecture.md): each line is a layer, the lowest first. A
// room (a folder of src/) imports only rooms of lower layers, never a higher one nor another room of
// its own layer, and no files import each other in a circle. `make check-deps` runs the check.
const layers = [
  ['shared'],
  ['hcl', 'config', 'lock'],
  ['facts'],
  ['runners'],
  ['data', 'pull', 'checks'],
  ['templates', 'secrets', 'module-sources'],
  ['state', 'fmt'],
  ['graph'],
  ['describe'],
  ['report'],
  ['apply'],
  ['record', 'preview'],
  ['fleet'],
  ['output'],
  ['plan'],
  ['run', 'check', 'test-run'],
  ['lsp'],
  ['cli'],
  ['manual'],
];

const room = (name) => `^src/${name}/`;
const above = (index) => layers.slice(index + 1).flat().map(room);

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'two files (or rooms) that import each other cannot be changed, tested or read alone',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layers.slice(0, -1).map((rooms, index) => ({
      name: `flow-${rooms.join('-')}`,
      severity: 'error',
      comment: `${rooms.join(', ')} import only their own layer and those below it (docs/architecture.md)`,
      from: { path: rooms.map(room) },
      to: { path: above(index) },
    })),
    ...layers.flatMap((rooms) => rooms.length < 2 ? [] : rooms.map((name) => ({
      name: `flow-${name}-beside`,
      severity: 'error',
      comment: `the rooms of one layer stand side by side: ${name} imports none of ${rooms.filter((other) => other !== name).join(', ')}`,
      from: { path: room(name) },
      to: { path: rooms.filter((other) => other !== name).map(room) },
    }))),
    {
      name: 'every-room-placed',
      severity: 'error',
      comment: 'a new folder of src/ gets its place in the layers above before it imports or is imported',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: layers.flat().map(room) },
    },
    {
      name: 'every-room-placed-from',
      severity: 'error',
      comment: 'a new folder of src/ gets its place in the layers above before it imports or is imported',
      from: { path: '^src/', pathNot: layers.flat().map(room) },
      to: { path: '^src/' },
    },
    {
      name: 'runners-side-by-side',
      severity: 'error',
      comment: 'a runner folder imports only src/runners/kit, src/runners/lib, src/shared and its own folder (docs/adding-a-runner.md)',
      from: { path: '^src/runners/(?!kit/|lib/|host/)([^/]+)/' },
      // src/facts/env-fact.ts: the pkg runner answers `$GOVERN facts os/family` in-process with that command's code (bench/README.md, "Round seven").
      to: { path: '^src/', pathNot: ['^src/runners/kit/', '^src/runners/lib/', '^src/shared/', '^src/runners/$1/', '^src/facts/env-fact\\.ts$'] },
    },
    {
      name: 'runners-kit-and-lib-below-runners',
      severity: 'error',
      comment: 'the runner kit and library import no runner (docs/adding-a-runner.md)',
      from: { path: '^src/runners/(kit|lib)/' },
      to: { path: '^src/', pathNot: ['^src/runners/kit/', '^src/runners/lib/', '^src/shared/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
