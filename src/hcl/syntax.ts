// The shape of a parsed HCL file, as every room that reads HCL sees it: state files (resources,
// `module` and `variable` blocks), hierarchy.hcl, data files and recipients.hcl. Items keep the
// order they were written in and where each was written; values are already decoded (escapes,
// heredocs), since govern's HCL holds literals only: an expression or an interpolation is a
// syntax error of the parser, never a value. The parser is src/hcl/parse.ts (issue 26 chose it:
// docs/hcl.md).
import type { AttrValue } from '../shared/protocol.js';

/** 1-based, in the text given to the parser (the rendered text for a template). */
export interface Position {
  line: number;
  column: number;
}

export interface HclAttribute {
  kind: 'attribute';
  name: string;
  value: AttrValue;
  /** The attribute's name. */
  at: Position;
}

export interface HclBlock {
  kind: 'block';
  type: string;
  labels: string[];
  /** Attributes and nested blocks, in source order. */
  body: HclItem[];
  /** The block's type word. */
  at: Position;
}

export type HclItem = HclAttribute | HclBlock;

export interface HclFile {
  /** The top-level attributes and blocks, in source order. */
  items: HclItem[];
}
