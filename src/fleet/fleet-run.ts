// `govern fleet run`: the selected hosts run now, a batch at a time. Each host of a batch is asked
// on its own subject; the batch is done when each of them has published a run that began after its
// listener got the request (by the host's own clock, which the answer gives). The first failure (a
// host that did not answer, refused, could not start its run, failed it, or did not report in time)
// stops the rollout: later batches are not asked.
import os from 'node:os';
import type { NatsConnection } from '@nats-io/transport-node';
import type { HostRun } from './host-record.js';
import { natsTransport } from './nats.js';
import { checkRun } from './published.js';
import { runSubject, type RunReply, type RunRequest } from './run-request.js';
import type { Signer } from './request-signature.js';
import { fleetProblem } from './read-fleet.js';
import { deadlineIn } from './transient.js';
import { startRunWatch } from './watch.js';

export interface RolloutOptions {
  batches: string[][];
  /** How long a batch may take, from asking (the listener answers once it started the run) to the last host's report. */
  batchTimeoutMs: number;
  /** Signs each request for its host (--sign-key), for listeners that accept only signed requests. */
  sign?: Signer;
  /** --fleet-timeout: how long starting a batch's watch may take. */
  fleetTimeoutMs: number;
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
  const deadline = Date.now() + o.batchTimeoutMs;
  // Watching first: a run that ends right after the request is not missed.
  const watch = await fleetProblem(nc.getServer(), startRunWatch(nc, deadlineIn(o.fleetTimeoutMs)));
  const outcomes = new Map<string, HostOutcome>();
  const since = new Map<string, string | undefined>();
  const asking = (host: string) =>
    ask(nc, host, Math.max(1, deadline - Date.now()), o.sign).then((answer) => {
      if (typeof answer === 'string') {
        if (!outcomes.has(host)) outcomes.set(host, { host, ok: false, reason: answer });
        if (hosts.every((h) => outcomes.has(h))) watch.stop();
      } else since.set(host, answer.since);
    });
  const answers = new Map(hosts.map((host) => [host, asking(host)]));
  const timer = setTimeout(() => watch.stop(), o.batchTimeoutMs);
  try {
    for await (const e of watch) {
      if (!hosts.includes(e.key) || outcomes.has(e.key) || e.operation !== 'PUT') continue;
      let value: unknown;
      try {
        value = e.json<unknown>();
      } catch {
        value = undefined;
      }
      // The host's listener answers once its run is started, so a run may be published before the
      // answer: wait for the answer, which says from when runs count.
      if (!since.has(e.key)) await answers.get(e.key);
      if (outcomes.has(e.key)) continue;
      const from = since.get(e.key);
      // A run under way when the request came (the timer's, say) may not include what the request is
      // about: the host's listener starts one more after it (run-after.ts), which is the one to wait for.
      const checked = checkRun(e.key, value, Date.now());
      if (!checked.ok) {
        outcomes.set(e.key, { host: e.key, ok: false, reason: `published what is not valid: ${checked.problem}` });
        if (hosts.every((h) => outcomes.has(h))) break;
        continue;
      }
      const run = checked.value;
      if (from !== undefined && Date.parse(run.started_at) < Date.parse(from)) continue;
      outcomes.set(e.key, run.success ? { host: e.key, ok: true, run } : { host: e.key, ok: false, reason: `its run failed (${run.summary.failed} failed${run.errors[0] ? `; ${run.errors[0]}` : ''}${run.failed[0] ? `; ${run.failed[0].ref}: ${run.failed[0].message}` : ''})` });
      if (hosts.every((h) => outcomes.has(h))) break;
    }
  } finally {
    clearTimeout(timer);
    watch.stop();
  }
  for (const host of hosts) if (!outcomes.has(host)) outcomes.set(host, { host, ok: false, reason: `no run reported within ${o.batchTimeoutMs / 1000} s` });
  return hosts.map((h) => outcomes.get(h)!);
}

/** The listener's answer when it started the run; else why not, in words. */
async function ask(nc: NatsConnection, host: string, timeoutMs: number, sign: Signer | undefined): Promise<{ since?: string } | string> {
  const plain: RunRequest = { format: 1, id: natsTransport().nuid.next(), requested_at: new Date().toISOString(), by: `${os.userInfo().username}@${os.hostname()}` };
  const request = sign ? sign(plain, host) : plain;
  try {
    const answer = await nc.request(runSubject(host), JSON.stringify(request), { timeout: timeoutMs });
    // The answer is another host's text: checked, and bounded before it is printed.
    const reply = answer.json<Partial<RunReply> & { since?: unknown; reason?: unknown }>();
    if (reply?.accepted === true) return typeof reply.since === 'string' && Number.isFinite(Date.parse(reply.since)) ? { since: reply.since } : {};
    if (reply?.accepted !== false || typeof reply.reason !== 'string') return 'answered with what is not a govern reply';
    const reason = reply.reason.length > 500 ? `${reply.reason.slice(0, 500)}...` : reply.reason;
    return 'start_failed' in reply && reply.start_failed === true ? reason : `refused: ${reason}`;
  } catch (e) {
    const text = (e as Error).message;
    return /no responders/i.test(text) ? 'not listening (no govern listen answered)' : `did not answer: ${text}`;
  }
}
