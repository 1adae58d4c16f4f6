// Shared helpers for the shell syntax tests.
import assert from 'node:assert/strict';
import { parse, print } from '../../src/shell/syntax/index.js';
import type { Command, Script, Word, WordPart } from '../../src/shell/syntax/index.js';

/** The tree without positions, for deep comparison. */
export function strip<T>(x: T): T {
  return JSON.parse(JSON.stringify(x, (k, v: unknown) => (k === 'line' || k === 'col' ? undefined : v))) as T;
}

/** Every source a test parsed, for the round-trip test. */
export const seen: string[] = [];

export function ast(src: string): Script {
  seen.push(src);
  return strip(parse(src));
}

/** The first statement's command. */
export function cmd(src: string): Command {
  return ast(src).stmts[0].cmd;
}

/** The words of a simple command. */
export function words(src: string): Word[] {
  const c = cmd(src);
  assert.equal(c.type, 'SimpleCommand');
  return c.type === 'SimpleCommand' ? c.words : [];
}

/** The parts of the n-th word of a simple command. */
export function parts(src: string, n = 1): WordPart[] {
  return words(src)[n].parts;
}

export const lit = (value: string): WordPart => ({ type: 'Lit', value }) as WordPart;

/** parse → print → parse gives the same tree. */
export function roundTrip(src: string): void {
  const a = strip(parse(src));
  const printed = print(parse(src));
  let b: Script;
  try {
    b = strip(parse(printed));
  } catch (e) {
    assert.fail(`re-parse failed for ${JSON.stringify(src)}\nprinted:\n${printed}\n${String(e)}`);
  }
  assert.deepEqual(b, a, `round trip of ${JSON.stringify(src)}\nprinted:\n${printed}`);
}
