// Text that came from runners, commands, facts or state files, on its way to a terminal: control
// characters are shown escaped (`\x1b`), so what a runner prints cannot move the cursor, retitle
// the window or hide a line (docs/security.md, "Output"). JSON output keeps the exact text.

/**
 * C0 controls but tab and newline, DEL, the C1 controls (U+0080 to U+009F), and the format
 * characters that reorder or break what a terminal shows: the bidirectional marks, embeddings,
 * overrides and isolates (a line that reads differently from what it holds,
 * the "Trojan source" trick) and the Unicode line and paragraph separators.
 */
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
const CONTROLS_AND_NEWLINE = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

function hex(ch: string): string {
  const code = ch.charCodeAt(0);
  return code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`;
}

/** Text of several lines for a terminal: tab and newline kept, every other control character escaped. */
export function terminalText(text: string): string {
  return text.replace(CONTROLS, hex);
}

/** One line for a terminal: a newline inside it is escaped too. */
export function terminalLine(text: string): string {
  return text.replace(CONTROLS_AND_NEWLINE, hex);
}
