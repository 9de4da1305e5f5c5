// A real LSP client for the tests: `govern lsp` started as an editor starts it (bin/govern, stdio),
// spoken to with vscode-jsonrpc, the protocol library VS Code's own client is built on. Every
// publishDiagnostics the server sends is kept, and a test waits for the next one of a file. Also
// bench/lsp-diagnostics.ts's client.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';

export interface Diagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  message: string;
  code?: string;
}

type Waiter = { uri: string; version: number; resolve: (d: Diagnostic[]) => void };

export class LspClient {
  readonly connection: MessageConnection;
  readonly stderr: string[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly versions = new Map<string, number>();
  /** The diagnostics last published of each file, by URI. */
  readonly latest = new Map<string, Diagnostic[]>();
  readonly exited: Promise<number | null>;

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    this.connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    child.stderr.on('data', (b: Buffer) => this.stderr.push(b.toString()));
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    this.connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: Diagnostic[]; version?: number }) => {
      this.latest.set(p.uri, p.diagnostics);
      // Diagnostics of an older text (a check under way when the text changed) are not the ones awaited.
      const i = this.waiters.findIndex((w) => w.uri === p.uri && p.version !== undefined && p.version >= w.version);
      if (i >= 0) this.waiters.splice(i, 1)[0].resolve(p.diagnostics);
    });
    this.connection.listen();
  }

  /** `GOVERN lsp ARGS` (bin/govern of the checkout, say), initialized for the workspace folder `root`. */
  static async start(govern: string, root: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<LspClient> {
    const child = spawn(govern, ['lsp', ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    const client = new LspClient(child);
    const uri = pathToFileURL(root).href;
    client.initialized = await client.connection.sendRequest('initialize', { processId: process.pid, rootUri: uri, workspaceFolders: [{ uri, name: 'tree' }], capabilities: {} });
    await client.connection.sendNotification('initialized', {});
    return client;
  }

  initialized: unknown;

  /** The first diagnostics published for the file's text as it is after the next open or change; ask before it. */
  nextDiagnostics(file: string): Promise<Diagnostic[]> {
    const version = (this.versions.get(file) ?? 0) + 1;
    return new Promise((resolve) => this.waiters.push({ uri: uri(file), version, resolve }));
  }

  async open(file: string, text: string): Promise<void> {
    this.versions.set(file, 1);
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uri(file), languageId: 'govern', version: 1, text } });
  }

  async change(file: string, text: string): Promise<void> {
    const version = (this.versions.get(file) ?? 1) + 1;
    this.versions.set(file, version);
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri: uri(file), version }, contentChanges: [{ text }] });
  }

  request<T>(method: string, file: string, position?: { line: number; character: number }): Promise<T> {
    return this.connection.sendRequest(method, { textDocument: { uri: uri(file) }, ...(position ? { position } : {}), ...(method === 'textDocument/formatting' ? { options: { tabSize: 2, insertSpaces: true } } : {}) });
  }

  /** shutdown, then exit: the process's exit code. */
  async stop(): Promise<number | null> {
    await this.connection.sendRequest('shutdown');
    await this.connection.sendNotification('exit');
    const code = await this.exited;
    this.connection.dispose();
    return code;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

export function uri(file: string): string {
  return pathToFileURL(file).href;
}

/** The 0-based position of the first `marker` in text, plus `shift` characters. */
export function positionOf(text: string, marker: string, shift = 0): { line: number; character: number } {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`no ${marker} in the text`);
  const before = text.slice(0, at + shift);
  return { line: before.split('\n').length - 1, character: before.length - before.lastIndexOf('\n') - 1 };
}
