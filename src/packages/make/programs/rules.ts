// The rule database: files (targets and prerequisites, with what is known of
// how to make them and where their update stands) and pattern rules.

import type { Scope } from './vars.js';

export interface Loc {
  file: string;
  line: number;
}

/** A recipe as written: its command lines (continuations kept, recipe prefix removed), unexpanded. */
export interface Recipe {
  lines: string[];
  loc: Loc;
  /** Line number of each command line (for error messages). */
  lineNos: number[];
}

/** One rule of a double-colon target, or the single rule of an ordinary one. */
export interface Rule {
  deps: string[];
  orderOnly: string[];
  recipe: Recipe | null;
}

export interface PatternRule {
  targets: string[];
  deps: string[];
  orderOnly: string[];
  recipe: Recipe | null;
  /** `%::` rules: prerequisites must exist; never chained. */
  terminal: boolean;
}

export const NONEXISTENT = -1;
/** A phony target or a file remade in -n mode: newer than anything. */
export const NEWEST = Number.MAX_SAFE_INTEGER;

export type Phase = 'new' | 'deps' | 'running' | 'done';

export class FileNode {
  deps: string[] = [];
  orderOnly: string[] = [];
  recipe: Recipe | null = null;
  /** Double-colon rules, each with its own prerequisites and recipe. */
  doubleColon: Rule[] | null = null;
  /** Named as a target of an explicit rule (not only as a prerequisite). */
  isTarget = false;
  /** Named as a prerequisite in the makefiles (so it "ought to exist" for the implicit rule search). */
  mentioned = false;
  phony = false;
  precious = false;
  intermediate = false;
  secondary = false;
  /** Its own variables (target-specific and, once matched, pattern-specific); parent set when first needed. */
  vars: Scope | null = null;
  /** Where directory search (vpath, VPATH) found it, when it is not where it is named. */
  path: string | null = null;
  /** Stem of the static pattern or implicit rule that applies. */
  stem = '';
  /** Pattern rule siblings made by the same recipe run (grouped pattern targets). */
  also: FileNode[] = [];

  // Update state.
  phase: Phase = 'new';
  /** Recipe ran (or would run, under -n) for it. */
  remade = false;
  failed = false;
  /** The implicit rule search has been done. */
  searched = false;
  /** Chosen during the implicit rule search: an intermediate that did not exist. */
  madeIntermediate = false;
  mtimeCache: number | null = null;
  /** Which double-colon rule is being worked on. */
  dcIndex = 0;

  constructor(readonly name: string) {}
}
