// What a template may hold, checked on its text before Handlebars parses it (docs/security.md,
// "Counts and sizes"). Handlebars' parser and compiler cost time and memory per term: a 10 MB
// template of `{{x}}` ran out of V8's heap after minutes, and blocks nested some thousands deep took
// the parser minutes before it overflowed the stack. An unreviewed branch's `govern diff` must end.
import type { Problem } from '../shared/errors.js';

/** Terms (the words between `{{` and `}}`) in a template and the partials it includes, together. */
export const MAX_TEMPLATE_TERMS = 100_000;
/** Blocks (`{{#...}}`, `{{^...}}`) open at once; the HCL parser's bound on nesting is the same. */
export const MAX_BLOCK_DEPTH = 100;

/**
 * Counts the template's terms onto `counted` (those of the template and partials already read) and
 * its depth of blocks; a problem at the line where either first passes its bound.
 */
export function templateBounds(file: string, source: string, counted: { terms: number; refused?: boolean }): Problem | undefined {
  // Said once, at the file that passed the bound, not again for each partial after it.
  if (counted.refused) return undefined;
  let line = 1;
  let lineFrom = 0;
  let depth = 0;
  let at = source.indexOf('{{');
  while (at !== -1) {
    const end = source.indexOf('}}', at + 2);
    // An unclosed tag: the parser says where.
    if (end === -1) break;
    line += newlines(source, lineFrom, at);
    const tag = source.slice(at + 2, end);
    const opens = /^\{*~?([#^/])/.exec(tag);
    if (opens?.[1] === '/') depth = Math.max(0, depth - 1);
    // `{{^}}` alone is a block's else, not a block.
    else if (opens && !/^\{*~?\^\s*~?$/.test(tag) && ++depth > MAX_BLOCK_DEPTH) {
      return { file, line, message: `blocks nested more than ${MAX_BLOCK_DEPTH} levels deep; govern refuses deeper nesting` };
    }
    counted.terms += tag.startsWith('!') ? 1 : words(tag);
    if (counted.terms > MAX_TEMPLATE_TERMS) {
      counted.refused = true;
      return { file, line, message: `more than ${MAX_TEMPLATE_TERMS.toLocaleString('en-US')} terms in {{ }} (counting the partials included); govern refuses a larger template` };
    }
    line += newlines(source, at, end);
    lineFrom = end;
    at = source.indexOf('{{', end + 2);
  }
  return undefined;
}

/** Line breaks in [from, to), looked for there alone: a 10 MB line must not be searched once per tag. */
function newlines(source: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (source.charCodeAt(i) === 10) n++;
  return n;
}

function words(tag: string): number {
  let n = 0;
  for (let i = 0, inWord = false; i < tag.length; i++) {
    const space = tag.charCodeAt(i) <= 32;
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}
