// The implicit rule search: which pattern rule makes a file that has no
// recipe of its own. Rules whose prerequisites exist (or are named in the
// makefiles) win over rules that need other files made first (chains, whose
// middle files are intermediate); among those, the shortest stem, then the
// first defined; user rules before built-in ones.

import type { Make } from './context.js';
import type { FileNode, PatternRule } from './rules.js';
import { fillPattern, matchPattern, suffixOf } from './text.js';
import { fileExists } from './mtime.js';
import { vpathSearch } from './vpath.js';

export interface Found {
  rule: PatternRule;
  stem: string;
  deps: string[];
  orderOnly: string[];
  /** Files to be made first that exist nowhere yet, each with the rule that makes it. */
  chain: { name: string; found: Found }[];
}

const MAX_CHAIN = 3;

interface Candidate {
  rule: PatternRule;
  stem: string;
  /** Directory part moved off a file name for a pattern without '/'. */
  dir: string;
}

function candidates(mk: Make, name: string, depth: number, used: Set<PatternRule>): Candidate[] {
  const out: Candidate[] = [];
  const slash = name.lastIndexOf('/');
  const known = suffixOf(name);
  for (const rule of [...mk.patternRules, ...mk.builtinRules]) {
    if (!rule.recipe || used.has(rule)) continue;
    for (const t of rule.targets) {
      const matchAnything = t === '%';
      // A non-terminal match-anything rule does not apply to files of a known type, nor inside chains.
      if (matchAnything && !rule.terminal && (depth > 0 || (known !== null && mk.suffixes.includes(known)))) continue;
      const hasSlash = t.includes('/');
      const dir = !hasSlash && slash >= 0 ? name.slice(0, slash + 1) : '';
      const stem = matchPattern(t, dir ? name.slice(slash + 1) : name);
      if (stem === null || (stem === '' && t.includes('%'))) continue;
      out.push({ rule, stem: dir + stem, dir });
      break;
    }
  }
  return out.map((c, i) => ({ c, i })).sort((a, b) => a.c.stem.length - b.c.stem.length || a.i - b.i).map((x) => x.c);
}

function depsOf(c: Candidate, list: string[]): string[] {
  return list.map((d) => {
    if (!d.includes('%')) return d;
    const stem = c.dir && !d.includes('/') ? c.stem.slice(c.dir.length) : c.stem;
    return c.dir && !d.includes('/') ? c.dir + fillPattern(d, stem) : fillPattern(d, c.stem);
  });
}

/** A file that exists, or that the makefiles name (so it ought to exist). */
function oughtToExist(mk: Make, name: string): boolean {
  const f = mk.files.get(name);
  if (f && (f.isTarget || f.mentioned)) return true;
  return fileExists(mk, name) || vpathSearch(mk, name) !== null;
}

export function findImplicit(mk: Make, f: FileNode | string, depth = 0, used = new Set<PatternRule>()): Found | null {
  const name = typeof f === 'string' ? f : f.name;
  const cands = candidates(mk, name, depth, used);
  for (const c of cands) {
    const deps = depsOf(c, c.rule.deps);
    if (deps.every((d) => oughtToExist(mk, d))) return { rule: c.rule, stem: c.stem, deps, orderOnly: depsOf(c, c.rule.orderOnly), chain: [] };
  }
  if (depth >= MAX_CHAIN) return null;
  for (const c of cands) {
    if (c.rule.terminal) continue;
    const deps = depsOf(c, c.rule.deps);
    const chain: Found['chain'] = [];
    const inner = new Set(used).add(c.rule);
    let ok = true;
    for (const d of deps) {
      if (oughtToExist(mk, d)) continue;
      const sub = findImplicit(mk, d, depth + 1, inner);
      if (!sub) {
        ok = false;
        break;
      }
      chain.push({ name: d, found: sub });
    }
    if (ok) return { rule: c.rule, stem: c.stem, deps, orderOnly: depsOf(c, c.rule.orderOnly), chain };
  }
  return null;
}
