// Asking hosts to run now: the operator's `govern fleet run` sends a request on the host's own
// subject, govern.run.HOST; the host's `govern listen` answers and starts its usual run. Who may
// send is the NATS server's business: only the operators' credentials may publish under govern.run,
// and a host may subscribe only to its own subject (docs/fleet.md, "On-demand runs").
export const RUN_SUBJECT_PREFIX = 'govern.run';

export function runSubject(host: string): string {
  return `${RUN_SUBJECT_PREFIX}.${host}`;
}

export interface RunRequest {
  format: 1;
  /** Unique per request, for the host's log. */
  id: string;
  requested_at: string;
  /** Who asked: the operator's user and host, for the host's log. */
  by: string;
  /** A signed request: the host it is meant for, the signer's public nkey, the signature (request-signature.ts). */
  host?: string;
  key?: string;
  sig?: string;
}

/**
 * The listener's answer, once the run was started (or could not be). `since`: the host's own clock
 * when the request came, ISO 8601; a run that began before it does not answer the request. Absent
 * from listeners older than it: any run published after the request counts.
 */
export type RunReply = { accepted: true; since?: string } | { accepted: false; reason: string; start_failed?: true };

export function parseRunRequest(data: string): RunRequest {
  let value: Partial<RunRequest>;
  try {
    value = JSON.parse(data) as Partial<RunRequest>;
  } catch {
    throw new Error('not JSON');
  }
  if (value?.format !== 1 || typeof value.id !== 'string' || typeof value.requested_at !== 'string' || typeof value.by !== 'string') {
    throw new Error('not a govern run request (format 1: id, requested_at, by)');
  }
  for (const field of ['id', 'requested_at', 'by', 'host', 'key', 'sig'] as const) {
    const v = value[field];
    if (v !== undefined && (typeof v !== 'string' || v.includes('\n'))) throw new Error(`not a govern run request: ${field} is not a line of text`);
  }
  return value as RunRequest;
}

/** `--batch 2` or `--batch 25%` of the selected hosts (at least one host a batch). */
export function batchSize(text: string, hosts: number): number {
  const m = /^(\d+)(%?)$/.exec(text);
  if (!m || Number(m[1]) < 1 || (m[2] === '%' && Number(m[1]) > 100)) throw new Error(`--batch must be a number of hosts or a percentage (2, 25%), not "${text}"`);
  return m[2] === '%' ? Math.max(1, Math.floor((hosts * Number(m[1])) / 100)) : Number(m[1]);
}

export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
