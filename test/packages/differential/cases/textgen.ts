// Deterministic random text for the diff/patch cases: line files built from a
// small vocabulary (so lines repeat, as in code, and GNU diff's tie-breaking
// and boundary sliding matter) and random edits of them.

/** mulberry32: a small seeded PRNG, so every run builds the same files. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'alpha', 'beta', 'gamma', 'delta', 'return x;', '}', '{', '', 'int i = 0;', 'i++;', 'if (x) {', 'else',
  'foo(bar);', '# comment', 'end', '\tindented', '  two spaces', 'x = y + z;', 'print("hi")', 'TODO',
];

export interface Gen {
  int(n: number): number;
  pick<T>(xs: readonly T[]): T;
}

export function gen(seed: number): Gen {
  const r = rng(seed);
  return {
    int: (n) => Math.floor(r() * n),
    pick: (xs) => xs[Math.floor(r() * xs.length)],
  };
}

/** `n` lines drawn from the first `vocab` words (fewer words: more repeated lines). */
export function randomLines(g: Gen, n: number, vocab: number): string[] {
  const words = WORDS.slice(0, Math.max(2, Math.min(vocab, WORDS.length)));
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(g.int(4) === 0 ? `${g.pick(words)} ${g.int(50)}` : g.pick(words));
  return out;
}

/** Apply `edits` random insertions, deletions and replacements of short runs. */
export function editLines(g: Gen, lines: string[], edits: number, vocab: number): string[] {
  const out = [...lines];
  for (let e = 0; e < edits; e++) {
    const at = g.int(out.length + 1);
    const len = 1 + g.int(3);
    const kind = g.int(3);
    const fresh = randomLines(g, len, vocab);
    if (kind === 0) out.splice(at, 0, ...fresh);
    else if (kind === 1) out.splice(at, len);
    else out.splice(at, len, ...fresh);
  }
  return out;
}

/** Lines joined into a file; `noEol` drops the final newline. */
export function text(lines: string[], noEol = false): string {
  if (lines.length === 0) return '';
  return lines.join('\n') + (noEol ? '' : '\n');
}
