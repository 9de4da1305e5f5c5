// What `govern status` adds about the fleet: when the last run could not be published, the check
// is at least WARNING (the fleet's view of this host is stale) and says why; the count of failed
// publishes is in the performance data. A publish record older than the last run is not about it
// (publishing was turned off since) and is left out.
import type { LastRun } from '../record/last-run.js';
import { STATUS_NAMES, type StatusAnswer, type StatusCode } from '../record/status.js';
import type { PublishRecord } from './publish-record.js';

export function withPublishNote(answer: StatusAnswer, last: LastRun, record: PublishRecord | undefined): StatusAnswer {
  if (record === undefined || last.kind !== 'report') return answer;
  const ended = Date.parse(last.report.started_at) + last.report.summary.duration_ms;
  if (Date.parse(record.at) < ended) return answer;
  const perf = `fleet_publish_failures=${record.failures_total}c;;;0`;
  // The line is `GOVERN STATE - text | perfdata` (record/status.ts): its parts are taken apart at
  // the separators that function puts in, which its text never contains.
  const bar = answer.line.indexOf(' | ');
  const head = bar < 0 ? answer.line : answer.line.slice(0, bar);
  const perfdata = bar < 0 ? perf : `${answer.line.slice(bar + 3)} ${perf}`;
  if (record.ok) return { code: answer.code, line: `${head} | ${perfdata}` };
  const code = (answer.code === 0 ? 1 : answer.code) as StatusCode;
  const text = head.slice(head.indexOf(' - ') + 3);
  const why = `the last run was not published to the fleet (${record.failures_total} failure${record.failures_total === 1 ? '' : 's'}): ${record.error ?? ''}`.replace(/\|/g, '/');
  return { code, line: `GOVERN ${STATUS_NAMES[code]} - ${why}; ${text} | ${perfdata}` };
}
