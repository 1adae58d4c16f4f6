// Tilde prefixes are found after a word is read: a `~` is only special when
// the text up to the first `/` (or `:` in assignments) is unquoted.
import type { Lit, WordPart, Word } from './ast.js';

const USER = /^[A-Za-z0-9._+-]*$/;

function splitLit(p: Lit, stops: string): WordPart[] | null {
  const v = p.value;
  let e = 1;
  while (e < v.length && !stops.includes(v[e])) e++;
  const user = v.slice(1, e);
  if (!USER.test(user)) return null;
  const out: WordPart[] = [{ type: 'Tilde', user, line: p.line, col: p.col }];
  if (e < v.length) out.push({ type: 'Lit', value: v.slice(e), line: p.line, col: p.col + e });
  return out;
}

/**
 * A command word that looks like an assignment (`x=~/y`, not `--opt=~`): bash
 * (outside POSIX mode) expands tildes in the part after `=` as in an assignment.
 */
export function markArgTildes(word: Word, posix: boolean): Word {
  const first = word.parts[0];
  const m = !posix && first?.type === 'Lit' ? /^[A-Za-z_][A-Za-z0-9_]*=/.exec(first.value) : null;
  if (!m) return markTildes(word, false);
  const head: Lit = { ...first as Lit, value: m[0] };
  const rest: Lit = { ...first as Lit, value: (first as Lit).value.slice(m[0].length), col: first.col + m[0].length };
  const value = markTildes({ ...word, parts: rest.value ? [rest, ...word.parts.slice(1)] : word.parts.slice(1) }, true);
  if (!value.parts.some((p) => p.type === 'Tilde')) return word;
  return { ...word, parts: [head, ...value.parts] };
}

/** Replaces leading `~user` text with Tilde parts (also after each `:` when `assign`). */
export function markTildes(word: Word, assign: boolean): Word {
  const parts = word.parts;
  const stops = assign ? '/:' : '/';
  const out: WordPart[] = [];
  let atStart = true;
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k];
    if (p.type !== 'Lit') {
      out.push(p);
      atStart = false;
      continue;
    }
    // A prefix ending at the end of this Lit only counts if the word ends there too.
    const tryAt = (lit: Lit): WordPart[] | null => {
      if (!lit.value.startsWith('~')) return null;
      const r = splitLit(lit, stops);
      if (r === null) return null;
      if (r.length === 1 && k + 1 < parts.length) return null;
      return r;
    };
    if (!assign) {
      const r = atStart ? tryAt(p) : null;
      out.push(...(r ?? [p]));
      atStart = false;
      continue;
    }
    // Assignment values: a tilde may follow the start or any `:`.
    let rest: Lit = p;
    let first = atStart;
    for (;;) {
      if (first) {
        const r = tryAt(rest);
        if (r !== null) {
          out.push(r[0]);
          if (r.length === 1) break;
          rest = r[1] as Lit;
        }
      }
      const colon = rest.value.indexOf(':');
      if (colon < 0 || colon === rest.value.length - 1) {
        out.push(rest);
        break;
      }
      out.push({ type: 'Lit', value: rest.value.slice(0, colon + 1), line: rest.line, col: rest.col });
      rest = { type: 'Lit', value: rest.value.slice(colon + 1), line: rest.line, col: rest.col + colon + 1 };
      first = true;
    }
    atStart = false;
  }
  // Adjacent Lits produced by splitting at `:` are merged back when no tilde separates them.
  const merged: WordPart[] = [];
  for (const p of out) {
    const last = merged[merged.length - 1];
    if (p.type === 'Lit' && last?.type === 'Lit') merged[merged.length - 1] = { ...last, value: last.value + p.value };
    else merged.push(p);
  }
  return { ...word, parts: merged };
}
