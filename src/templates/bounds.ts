// What a template may hold, checked on its text before Handlebars parses it (docs/security.md,
// "Counts and sizes"). Handlebars' parser and compiler cost time and memory per term: a 10 MB
// template of `{{fact}}` calls ran out of V8's heap after 80 s, and blocks nested 33,000 deep kept
// the parser busy for minutes. An unreviewed branch's `govern diff` must end.
import type { Problem } from '../shared/errors.js';

/** Terms (the words between `{{` and `}}`) in a template and the partials it includes, together. */
export const MAX_TEMPLATE_TERMS = 100_000;
/**
 * Blocks (`{{#...}}`, `{{^...}}`) open at once, sub-expressions in one another and the parts of a
 * path (`a.b.c`): the HCL parser's bound on nesting is the same. Handlebars recurses on each.
 */
export const MAX_BLOCK_DEPTH = 100;
/**
 * Each `{{else if ...}}` of a chain is one more block inside the last (Handlebars nests them, and
 * its parser took 76 s over a chain of 10,000): blocks and the links of their chains, together.
 */
export const MAX_CHAIN_DEPTH = 1_000;

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
  // Per open block, the `{{else ...}}` links of its chain, closed with it.
  const chains: number[] = [];
  let chained = 0;
  let at = source.indexOf('{{');
  while (at !== -1) {
    const end = source.indexOf('}}', at + 2);
    // An unclosed tag: the parser says where.
    if (end === -1) break;
    line += newlines(source, lineFrom, at);
    const tag = source.slice(at + 2, end);
    const opens = /^\{*~?([#^/])/.exec(tag);
    if (opens?.[1] === '/') {
      depth = Math.max(0, depth - 1);
      chained -= chains.pop() ?? 0;
    } else if (opens && !/^\{*~?\^\s*~?$/.test(tag)) {
      // `{{^}}` alone is a block's else, not a block.
      chains.push(0);
      if (++depth > MAX_BLOCK_DEPTH) return { file, line, message: `blocks nested more than ${MAX_BLOCK_DEPTH} levels deep; govern refuses deeper nesting` };
    } else if (/^~?\s*else\s+[^\s~]/.test(tag) && chains.length > 0) {
      chains[chains.length - 1]++;
      if (++chained + depth > MAX_CHAIN_DEPTH) return { file, line, message: `blocks and their {{else if}} chains nested more than ${MAX_CHAIN_DEPTH} levels deep (each {{else ...}} of a chain is one); govern refuses deeper nesting` };
    }
    const comment = tag.startsWith('!');
    const size = comment ? { words: 1, depth: 0, parts: 0 } : measure(tag);
    if (size.depth > MAX_BLOCK_DEPTH) return { file, line, message: `sub-expressions ( ) nested more than ${MAX_BLOCK_DEPTH} levels deep; govern refuses deeper nesting` };
    if (size.parts >= MAX_BLOCK_DEPTH) return { file, line, message: `a path of more than ${MAX_BLOCK_DEPTH} parts (a.b.c); govern refuses a longer one` };
    counted.terms += size.words;
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

/** A tag's words, its deepest nesting of `(`, and the most separators (runs of `.` and `/`: `../` is one) in a word, outside quotes. */
function measure(tag: string): { words: number; depth: number; parts: number } {
  const size = { words: 0, depth: 0, parts: 0 };
  let quote: string | undefined;
  let open = 0;
  let parts = 0;
  for (let i = 0, inWord = false, after = false; i < tag.length; i++) {
    const c = tag[i];
    const separator = quote === undefined && (c === '.' || c === '/');
    const space = c <= ' ' && quote === undefined;
    if (!space && !inWord) {
      size.words++;
      parts = 0;
    }
    inWord = !space;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') size.depth = Math.max(size.depth, ++open);
    else if (c === ')') open = Math.max(0, open - 1);
    else if (separator && !after) size.parts = Math.max(size.parts, ++parts);
    after = separator;
  }
  return size;
}
