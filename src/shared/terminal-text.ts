// Text that came from runners, commands, facts or state files, on its way to a terminal: control
// characters are shown escaped (`\x1b`), so what a runner prints cannot move the cursor, retitle
// the window or hide a line (docs/security.md, "Output"). JSON output keeps the exact text.

/** C0 controls but tab and newline, DEL, and the C1 controls (U+0080 to U+009F). */
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
const CONTROLS_AND_NEWLINE = /[\x00-\x08\x0a-\x1f\x7f-\x9f]/g;

function hex(ch: string): string {
  return `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/** Text of several lines for a terminal: tab and newline kept, every other control character escaped. */
export function terminalText(text: string): string {
  return text.replace(CONTROLS, hex);
}

/** One line for a terminal: a newline inside it is escaped too. */
export function terminalLine(text: string): string {
  return text.replace(CONTROLS_AND_NEWLINE, hex);
}
