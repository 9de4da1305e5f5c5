// A report's error as the line govern printed when the run stopped: the report keeps the problem
// field by field (rendered_line, as JSON names it), the text is formatProblem's.
import { formatProblem } from '../shared/errors.js';
import type { ReportError } from './types.js';

/** `file:line: message`, `file (line N of the rendered text): message`, or the message alone. */
export function reportErrorText(e: ReportError): string {
  return formatProblem({ ...e, renderedLine: e.rendered_line });
}
