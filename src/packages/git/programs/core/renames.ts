// Inexact rename detection, as git's diffcore-rename scores it: each file
// is cut into spans (a line, or 64 bytes), spans are hashed and counted,
// and the score is the bytes of the old file found again in the new one
// over the larger size. Pairs scoring at least 50% become renames, best
// first (a shared file name breaks ties), each old file used once.

import { S_IFMT, S_IFREG } from '../../../../abi/stat.js';
import type { FileChange } from './changes.js';

export type Loader = (c: FileChange, side: 'old' | 'new') => Promise<Uint8Array>;

const MAX_SCORE = 60000;
const MIN_SCORE = 30000;
const HASHBASE = 107927;
const CANDIDATES_PER_DST = 4;

type Spans = Map<number, number>;

/** Span hashes of a blob: hash → bytes, spans ending at a newline or after 64 bytes (CR of CRLF skipped in text). */
function spans(buf: Uint8Array): Spans {
  const text = !buf.subarray(0, 8000).includes(0);
  const out: Spans = new Map();
  let n = 0;
  let a1 = 0;
  let a2 = 0;
  const add = () => {
    const h = ((a1 >>> 0) + Math.imul(a2 >>> 0, 0x61)) >>> 0;
    const key = h % HASHBASE;
    out.set(key, (out.get(key) ?? 0) + n);
    n = 0;
    a1 = 0;
    a2 = 0;
  };
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (text && c === 13 && i + 1 < buf.length && buf[i + 1] === 10) continue;
    const old1 = a1;
    a1 = ((a1 << 7) ^ (a2 >>> 25)) >>> 0;
    a2 = ((a2 << 7) ^ (old1 >>> 25)) >>> 0;
    a1 = (a1 + c) >>> 0;
    if (++n < 64 && c !== 10) continue;
    add();
  }
  if (n > 0) add();
  return out;
}

/** Bytes of `src` that `dst` has too (per span hash, the smaller count). */
function copied(src: Spans, dst: Spans): number {
  let sc = 0;
  for (const [h, s] of src) sc += Math.min(s, dst.get(h) ?? 0);
  return sc;
}

const isReg = (mode: number) => (mode & S_IFMT) === S_IFREG;
const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** Pair the remaining deletions and additions whose contents are similar enough; the list stays sorted by new path. */
export async function inexactRenames(changes: FileChange[], load: Loader): Promise<FileChange[]> {
  const srcs = changes.filter((c) => c.status === 'D' && isReg(c.old!.mode));
  const dsts = changes.filter((c) => c.status === 'A' && isReg(c.new!.mode));
  if (!srcs.length || !dsts.length) return changes;
  const data = new Map<FileChange, { size: number; spans: Spans | null; bytes: Uint8Array }>();
  const get = async (c: FileChange, side: 'old' | 'new') => {
    let d = data.get(c);
    if (!d) {
      const bytes = await load(c, side);
      data.set(c, (d = { size: bytes.length, spans: null, bytes }));
    }
    d.spans ??= spans(d.bytes);
    return d;
  };
  interface Score {
    dst: number;
    src: number;
    score: number;
    name: number;
  }
  const all: Score[] = [];
  for (let i = 0; i < dsts.length; i++) {
    const best: Score[] = [];
    for (let j = 0; j < srcs.length; j++) {
      const s = await get(srcs[j], 'old');
      const d = await get(dsts[i], 'new');
      const max = Math.max(s.size, d.size);
      const min = Math.min(s.size, d.size);
      if (max * (MAX_SCORE - MIN_SCORE) < (max - min) * MAX_SCORE) continue;
      const score = d.size ? Math.floor((copied(s.spans!, d.spans!) * MAX_SCORE) / max) : 0;
      best.push({ dst: i, src: j, score, name: base(srcs[j].oldPath) === base(dsts[i].newPath) ? 1 : 0 });
      best.sort((x, y) => y.score - x.score || y.name - x.name);
      if (best.length > CANDIDATES_PER_DST) best.pop();
    }
    all.push(...best);
  }
  all.sort((x, y) => y.score - x.score || y.name - x.name);
  const usedSrc = new Set<number>();
  const renamedDst = new Map<number, Score>();
  for (const s of all) {
    if (s.score < MIN_SCORE) break;
    if (renamedDst.has(s.dst) || usedSrc.has(s.src)) continue;
    renamedDst.set(s.dst, s);
    usedSrc.add(s.src);
  }
  if (!renamedDst.size) return changes;
  const drop = new Set([...usedSrc].map((j) => srcs[j]));
  const replace = new Map([...renamedDst].map(([i, s]) => [dsts[i], s] as const));
  const out: FileChange[] = [];
  for (const c of changes) {
    if (drop.has(c)) continue;
    const s = replace.get(c);
    if (!s) {
      out.push(c);
      continue;
    }
    const src = srcs[s.src];
    out.push({ status: 'R', oldPath: src.oldPath, newPath: c.newPath, old: src.old, new: c.new, score: Math.floor((s.score * 100) / MAX_SCORE) });
  }
  return out;
}
