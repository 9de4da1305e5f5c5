// govern's VS Code extension: the language client that starts `govern lsp` for govern's HCL files
// (the path and the options from the settings govern.path and govern.args; docs/editors.md).
'use strict';
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration('govern');
  const command = settings.get('path', 'govern');
  const args = ['lsp', ...settings.get('args', [])];
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient('govern', 'govern', { run: server, debug: server }, {
    documentSelector: [{ scheme: 'file', language: 'govern' }],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{hcl,json,yaml,yml}') },
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
