// Every command's whole definition, loaded at once: for what reads them all (the man page, the
// completion), never for a command line, which loads only the command it runs (command-index.ts).
import type { Command } from './command.js';
import { dataCommand } from './commands/data.js';
import { diffCommand } from './commands/diff.js';
import { factsCommand } from './commands/facts.js';
import { fleetCommand } from './commands/fleet.js';
import { graphCommand } from './commands/graph.js';
import { modulesCommand } from './commands/modules.js';
import { listenCommand } from './commands/listen.js';
import { planCommand } from './commands/plan.js';
import { pullCommand } from './commands/pull.js';
import { renderCommand } from './commands/render.js';
import { resourceCommand } from './commands/resource.js';
import { runCommand } from './commands/run.js';
import { secretCommand } from './commands/secret.js';
import { backupsCommand } from './commands/backups.js';
import { statusCommand } from './commands/status.js';
import { checkCommand } from './commands/check.js';
import { fmtCommand } from './commands/fmt.js';
import { lspCommand } from './commands/lsp.js';
import { testCommand } from './commands/test.js';
import { versioncmpCommand } from './commands/versioncmp.js';

/** In the order of the command index, which a test checks. */
export const commands: Command[] = [runCommand, resourceCommand, statusCommand, backupsCommand, pullCommand, factsCommand, renderCommand, graphCommand, dataCommand, modulesCommand, fleetCommand, listenCommand, secretCommand, planCommand, diffCommand, fmtCommand, checkCommand, testCommand, lspCommand, versioncmpCommand];
