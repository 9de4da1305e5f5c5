// The plan both account runners decide on: an action, whether it changes anything, and the message
// (in noop mode "Would have ...").
export interface Plan<A> {
  action: A;
  changed: boolean;
  /** What was done, lower case: "created user deploy", "changed shell /bin/sh -> /bin/bash". */
  summary: string;
}

export function planMessage(plan: Plan<unknown>, noop: boolean): string {
  return noop && plan.changed ? `Would have ${plan.summary}` : plan.summary;
}

export function unchanged(summary: string): Plan<{ kind: 'none' }> {
  return { action: { kind: 'none' }, changed: false, summary };
}

export function change<A>(action: A, summary: string): Plan<A> {
  return { action, changed: true, summary };
}
