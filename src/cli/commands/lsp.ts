// `govern lsp`: a language server for editors over stdio (src/lsp/, docs/editors.md).
import { governVersion } from '../../config/paths.js';
import { UserError } from '../../shared/errors.js';
import { described } from '../command-names.js';
import { defineCommand } from '../command.js';
import { helpOptions } from '../common-options.js';
import { optionTable } from '../options.js';
import { planningOptions } from '../planning-options.js';
import { previewSettings } from '../preview-options.js';

export const lspCommand = defineCommand({
  ...described('lsp'),
  details:
    'Speaks the Language Server Protocol on stdin and stdout, for an editor to start: diagnostics (what\n' +
    'govern check says, as the files are typed), completion of runners, keys, values, RREFs, modules,\n' +
    'facts and data keys, hover, go to definition, formatting (govern fmt) and document symbols. The\n' +
    "planning options apply to every tree the editor's files belong to (docs/editors.md).",
  options: optionTable([...planningOptions, ...helpOptions]),
  async run(o, operands) {
    if (operands.length > 0) throw new UserError(`govern lsp takes no operand (usage: ${this.usage})`);
    const { serveLsp } = await import('../../lsp/server.js');
    return serveLsp({ settingsFor: (root) => previewSettings(root, o), version: governVersion() });
  },
});
