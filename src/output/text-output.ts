// `govern run`'s text output as the run goes: each entry of the report printed when it is known,
// through report/text.ts, in colour when the choice (--color, NO_COLOR, a terminal) says so, each
// entry with the priority the journal gives it when the output goes there (priority.ts).
import type { Call } from '../state/runner-call.js';
import { sends } from '../apply/notify.js';
import type { Notification, ResourceGraph } from '../graph/resource-graph.js';
import { statusPriority, type Priority } from './priority.js';
import { invocationLines, notificationLines, resourceLines, type TextView } from '../report/text.js';
import type { NotificationReport, ResourceReport } from '../report/types.js';

export type ColourChoice = 'auto' | 'always' | 'never';

/** --color always or never as said; auto: on a terminal, unless NO_COLOR is set (no-color.org) or TERM is dumb. */
export function useColour(choice: ColourChoice, env: NodeJS.ProcessEnv, stream: { isTTY?: boolean }): boolean {
  if (choice !== 'auto') return choice === 'always';
  return !env.NO_COLOR && env.TERM !== 'dumb' && stream.isTTY === true;
}

export interface RunListener {
  onStart(call: Call): void;
  onResource(report: ResourceReport): void;
  onNotification(report: NotificationReport): void;
}

export function textPrinter(plan: ResourceGraph, view: TextView, write: (text: string, priority: Priority) => void): RunListener {
  const print = (lines: string[], priority: Priority) => {
    if (lines.length > 0) write(lines.map((l) => `${l}\n`).join(''), priority);
  };
  const done = new Map<string, ResourceReport>();
  const toReceiver = new Map<string, Notification[]>();
  for (const n of plan.notifications) toReceiver.set(n.to, [...(toReceiver.get(n.to) ?? []), n]);
  return {
    onStart: (call) => print(invocationLines(call, view), 'debug'),
    onResource: (r) => {
      done.set(r.ref, r);
      // Notifiers are ordered before their receivers, so whether one will notify this is known now.
      const notified = (toReceiver.get(r.ref) ?? []).some((n) => sends(n, done));
      print(resourceLines(r, view, notified), statusPriority(r.status));
    },
    onNotification: (n) => print(notificationLines(n, view), statusPriority(n.status)),
  };
}
