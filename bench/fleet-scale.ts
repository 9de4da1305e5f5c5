// The fleet layer's cost while planning: the same N file resources written two ways, planned by
// `govern graph` (bench/README.md, "The fleet layer"):
//   modules/  a tree with hierarchy.hcl, three data levels, and a module `site` of 10 resources with
//             typed parameters, instantiated N/10 times from the data key `sites` (each instance
//             sets some parameters, and the others are looked up in data, as `site/PARAM`);
//   flat/     the resources those instances expand to, written out as plain state files.
// Time them against each other, warm (parse cache kept) and cold (--no-cache), with any timer:
//   node dist/bench/fleet-scale.js --n 10000 --root /tmp/govern-fleet-bench
//   bin/govern graph --facts-dir ROOT/facts ROOT/modules >/dev/null   (and ROOT/flat)
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const PER_INSTANCE = 10;

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** The resources of instance i, as the module renders them and as the flat tree writes them. */
function resources(i: number, port: number, owner: string, root: string): string {
  const blocks: string[] = [];
  for (let k = 0; k < PER_INSTANCE; k++) {
    blocks.push(
      [
        `file "${root}/site${i}/f${k}.conf" {`,
        '  ensure   = "present"',
        `  owner    = "${owner}"`,
        '  group    = "root"',
        '  mode     = "0644"',
        `  contents = "listen ${port}\\nname site${i}\\n"`,
        '}',
        '',
      ].join('\n'),
    );
  }
  return blocks.join('\n');
}

function main(): void {
  const { values } = parseArgs({ options: { n: { type: 'string', default: '10000' }, root: { type: 'string', default: '/tmp/govern-fleet-bench' } } });
  const n = Number(values.n);
  const root = path.resolve(values.root!);
  const target = '/tmp/govern-fleet-bench-target';
  const instances = Math.ceil(n / PER_INSTANCE);
  fs.rmSync(root, { recursive: true, force: true });
  write(path.join(root, 'facts', 'role'), 'web');
  write(path.join(root, 'facts', 'env'), 'production');

  const m = path.join(root, 'modules');
  write(path.join(m, 'hierarchy.hcl'), 'levels = ["hosts/{{fact "hostname"}}", "roles/{{fact "role"}}", "env/{{fact "env"}}", "common"]\n');
  const sites = Array.from({ length: instances }, (_, i) => `    s${i} = { port = ${8000 + (i % 1000)} }`).join('\n');
  write(path.join(m, 'data', 'roles', 'web.hcl'), `sites = {\n${sites}\n}\n`);
  write(path.join(m, 'data', 'env', 'production.hcl'), `site = { owner = "root" }\n`);
  write(path.join(m, 'data', 'common.hcl'), `root = "${target}"\n`);
  write(path.join(m, 'sites.hcl'), '{{#each (data "sites")}}\nmodule {{quote @key}} {\n  source = "site"\n  index  = {{@index}}\n  port   = {{this.port}}\n}\n{{/each}}\n');
  write(
    path.join(m, 'modules', 'site', 'variables.hcl'),
    'variable "index" {\n  type = "number"\n}\nvariable "port" {\n  type = "number"\n  default = 80\n}\nvariable "owner" {\n  type = "string"\n  values = ["root", "www-data"]\n}\n',
  );
  const template = [];
  for (let k = 0; k < PER_INSTANCE; k++) {
    template.push(
      [
        `file "{{data "root"}}/site{{index}}/f${k}.conf" {`,
        '  ensure   = "present"',
        '  owner    = {{quote owner}}',
        '  group    = "root"',
        '  mode     = "0644"',
        '  contents = "listen {{port}}\\nname site{{index}}\\n"',
        '}',
        '',
      ].join('\n'),
    );
  }
  write(path.join(m, 'modules', 'site', 'site.hcl'), template.join('\n'));

  const f = path.join(root, 'flat');
  for (let i = 0; i < instances; i++) write(path.join(f, `site${String(i).padStart(5, '0')}.hcl`), resources(i, 8000 + (i % 1000), 'root', target));
  process.stdout.write(`${instances * PER_INSTANCE} resources: ${m} (${instances} instances of a module) and ${f}\n`);
}

main();
