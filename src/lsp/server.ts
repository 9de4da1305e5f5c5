// `govern lsp`: the Language Server Protocol over stdio, on vscode-languageserver (docs/editors.md).
// The documents an editor has open stand for their files while they are checked (their unsaved
// text, shared/source-file.ts); each feature is a file of its own beside this one. This module and
// the library are loaded by `govern lsp` alone (scripts/bundle.js keeps the library a vendor file).
import { fileURLToPath } from 'node:url';
import { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind, type Connection, type InitializeResult } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { setUnsavedTexts } from '../shared/source-file.js';
import { complete } from './completion.js';
import { definition } from './definition.js';
import { Diagnostics } from './diagnostics.js';
import { formatDocument } from './formatting.js';
import { hover } from './hover.js';
import { documentSymbols } from './symbols.js';
import { Trees, type SettingsFor, type Tree } from './trees.js';

export interface ServeOptions {
  settingsFor: SettingsFor;
  version: string;
}

/** Serves until the client says exit or stdin closes. */
export function serveLsp(options: ServeOptions): Promise<number> {
  const connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout);
  const documents = new TextDocuments(TextDocument);
  const unsaved = new Map<string, string>();
  setUnsavedTexts(unsaved);
  const trees = new Trees(options.settingsFor);
  const fileOf = (uri: string): string | undefined => (uri.startsWith('file:') ? fileURLToPath(uri) : undefined);
  const openIn = (tree: Tree) => documents.all().filter((d) => fileOf(d.uri) !== undefined && trees.of(fileOf(d.uri)!) === tree).map((d) => ({ uri: d.uri, version: d.version }));
  const diagnostics = new Diagnostics((uri, list, version) => void connection.sendDiagnostics({ uri, diagnostics: list, ...(version !== undefined ? { version } : {}) }), openIn, (m) => connection.console.error(m));

  connection.onInitialize((params): InitializeResult => {
    const folders = (params.workspaceFolders ?? []).map((f) => fileOf(f.uri)).filter((f): f is string => f !== undefined);
    const root = params.rootUri ? fileOf(params.rootUri) : undefined;
    trees.setFolders(folders.length > 0 ? folders : root !== undefined ? [root] : []);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        completionProvider: { triggerCharacters: ['"', ':', '/', ' '] },
        hoverProvider: true,
        definitionProvider: true,
        documentFormattingProvider: true,
        documentSymbolProvider: true,
      },
      serverInfo: { name: 'govern', version: options.version },
    };
  });

  const changed = (doc: TextDocument) => {
    const file = fileOf(doc.uri);
    if (file === undefined) return;
    unsaved.set(file, doc.getText());
    void diagnostics.schedule(trees.of(file));
  };
  // Opening a document is its first change too (TextDocuments tells both).
  documents.onDidChangeContent((e) => changed(e.document));
  documents.onDidSave((e) => changed(e.document));
  documents.onDidClose((e) => {
    const file = fileOf(e.document.uri);
    if (file === undefined) return;
    unsaved.delete(file);
    void diagnostics.schedule(trees.of(file));
  });
  connection.onDidChangeWatchedFiles(() => trees.all().forEach((t) => void diagnostics.schedule(t)));

  /** The document, its file and tree, for a request about a position or a document. */
  const open = (uri: string) => {
    const doc = documents.get(uri);
    const file = fileOf(uri);
    return doc && file !== undefined ? { doc, file, tree: trees.of(file) } : undefined;
  };
  connection.onCompletion(async (p) => {
    const o = open(p.textDocument.uri);
    return o ? complete(o.tree, o.doc.getText(), o.doc.offsetAt(p.position), p.position) : [];
  });
  connection.onHover(async (p) => {
    const o = open(p.textDocument.uri);
    return o ? hover(o.tree, o.doc.getText(), o.doc.offsetAt(p.position)) : null;
  });
  connection.onDefinition(async (p) => {
    const o = open(p.textDocument.uri);
    if (!o) return [];
    await diagnostics.settled(o.tree);
    return definition(o.tree, o.doc.getText(), o.doc.offsetAt(p.position));
  });
  connection.onDocumentFormatting((p) => {
    const o = open(p.textDocument.uri);
    if (!o) return [];
    const result = formatDocument(o.file, o.doc.getText());
    if ('reason' in result) void connection.window.showWarningMessage(`govern fmt leaves it as it is: ${result.reason}`);
    return result.edits;
  });
  connection.onDocumentSymbol(async (p) => {
    const o = open(p.textDocument.uri);
    if (!o) return [];
    await diagnostics.settled(o.tree);
    return documentSymbols(o.tree, o.file, o.doc.getText());
  });

  return listen(connection, documents);
}

/** The library ends the process on `exit` (0 after `shutdown`, else 1) or when stdin closes. */
function listen(connection: Connection, documents: TextDocuments<TextDocument>): Promise<number> {
  documents.listen(connection);
  connection.listen();
  return new Promise<number>(() => undefined);
}
