// Whether a last-run record is one `govern status` can read: valid against the report's schema
// (report/schema.ts, docs/report.md) and its start a real time. A record another program wrote, or
// a half-restored backup, is then one UNKNOWN line naming what is wrong, never a stack trace or
// "undefined failed". ajv is loaded by this module alone, which only `govern status` loads: compiling
// the schema costs about a tenth of a second, which no run should pay.
import Ajv from 'ajv';
import { REPORT_SCHEMA } from '../report/schema.js';
import type { LastRun } from './last-run.js';

let validate: ReturnType<Ajv['compile']> | undefined;

/** The record as it is when usable; otherwise `unreadable`, with the first thing wrong. */
export function checkedLastRun(last: LastRun): LastRun {
  if (last.kind !== 'report') return last;
  validate ??= new Ajv({ allErrors: false, strict: true }).compile(REPORT_SCHEMA);
  if (!validate(last.report)) {
    const e = validate.errors?.[0];
    const where = e?.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'the record';
    return { kind: 'unreadable', file: last.file, reason: `not a govern run report: ${where} ${e?.message ?? 'is not valid'}` };
  }
  if (!Number.isFinite(Date.parse(last.report.started_at))) {
    return { kind: 'unreadable', file: last.file, reason: `not a govern run report: started_at "${last.report.started_at}" is not a time` };
  }
  return last;
}
