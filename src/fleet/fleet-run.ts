// `govern fleet run`: the selected hosts run now, a batch at a time. Each host of a batch is asked
// on its own subject; the batch is done when each of them has published a run that ended after it
// was asked. The first failure (a host that did not answer, refused, failed its run, or did not
// report in time) stops the rollout: later batches are not asked.
import os from 'node:os';
import type { NatsConnection } from '@nats-io/transport-node';
import { nuid } from '@nats-io/transport-node';
import type { HostRun } from './host-record.js';
import { runSubject, type RunReply, type RunRequest } from './run-request.js';
import { startRunWatch, type RunWatch } from './watch.js';

export interface RolloutOptions {
  batches: string[][];
  /** How long a batch may take, from asking to the last host's report. */
  batchTimeoutMs: number;
  /** How long a host's listener has to answer the request. */
  answerTimeoutMs: number;
  say(text: string): Promise<void>;
}

export type HostOutcome = { host: string; ok: true; run: HostRun } | { host: string; ok: false; reason: string };

export interface RolloutEnd {
  /** Every host of every batch ran successfully. */
  ok: boolean;
  outcomes: HostOutcome[];
  /** Hosts not asked, after a failure. */
  notAsked: string[];
}

export async function rollout(nc: NatsConnection, o: RolloutOptions): Promise<RolloutEnd> {
  const outcomes: HostOutcome[] = [];
  for (const [i, batch] of o.batches.entries()) {
    await o.say(`batch ${i + 1} of ${o.batches.length}: ${batch.join(', ')}`);
    const results = await runBatch(nc, batch, o);
    outcomes.push(...results);
    for (const r of results) await o.say(r.ok ? `${r.host}: ok, ${r.run.summary.changed} changed${r.run.commit ? ` at ${r.run.commit.slice(0, 12)}` : ''}` : `${r.host}: FAILED: ${r.reason}`);
    if (results.some((r) => !r.ok)) return { ok: false, outcomes, notAsked: o.batches.slice(i + 1).flat() };
  }
  return { ok: true, outcomes, notAsked: [] };
}

async function runBatch(nc: NatsConnection, hosts: string[], o: RolloutOptions): Promise<HostOutcome[]> {
  // Watching first: a run that ends right after the request is not missed.
  const watch = await startRunWatch(nc);
  const request: RunRequest = { format: 1, id: nuid.next(), requested_at: new Date().toISOString(), by: `${os.userInfo().username}@${os.hostname()}` };
  const outcomes = new Map<string, HostOutcome>();
  await Promise.all(
    hosts.map(async (host) => {
      const problem = await ask(nc, host, request, o.answerTimeoutMs);
      if (problem !== undefined) outcomes.set(host, { host, ok: false, reason: problem });
    }),
  );
  const waiting = new Set(hosts.filter((h) => !outcomes.has(h)));
  if (waiting.size > 0) await awaitRuns(watch, waiting, outcomes, o.batchTimeoutMs);
  else watch.stop();
  for (const host of waiting) if (!outcomes.has(host)) outcomes.set(host, { host, ok: false, reason: `no run reported within ${o.batchTimeoutMs / 1000} s` });
  return hosts.map((h) => outcomes.get(h)!);
}

/** undefined when the host accepted; else why not. */
async function ask(nc: NatsConnection, host: string, request: RunRequest, timeoutMs: number): Promise<string | undefined> {
  try {
    const answer = await nc.request(runSubject(host), JSON.stringify(request), { timeout: timeoutMs });
    const reply = answer.json<RunReply>();
    return reply.accepted ? undefined : `refused: ${reply.reason}`;
  } catch (e) {
    const text = (e as Error).message;
    return /no responders/i.test(text) ? 'not listening (no govern listen answered)' : `did not answer: ${text}`;
  }
}

async function awaitRuns(watch: RunWatch, waiting: Set<string>, outcomes: Map<string, HostOutcome>, timeoutMs: number): Promise<void> {
  const timer = setTimeout(() => watch.stop(), timeoutMs);
  try {
    for await (const e of watch) {
      if (!waiting.has(e.key) || e.operation !== 'PUT') continue;
      const run = e.json<HostRun>();
      outcomes.set(e.key, run.success ? { host: e.key, ok: true, run } : { host: e.key, ok: false, reason: `its run failed (${run.summary.failed} failed${run.errors[0] ? `; ${run.errors[0]}` : ''}${run.failed[0] ? `; ${run.failed[0].ref}: ${run.failed[0].message}` : ''})` });
      if ([...waiting].every((h) => outcomes.has(h))) break;
    }
  } finally {
    clearTimeout(timer);
    watch.stop();
  }
}
