// A reader for .git/index (versions 2, 3 and 4): what is staged, with the
// stat data that lets status skip hashing unchanged files, and the merge
// stages of conflicted paths. Writes go through isomorphic-git.

export interface IndexEntry {
  path: string;
  /** 0 normal; 1 base, 2 ours, 3 theirs while a merge is unresolved. */
  stage: number;
  mode: number;
  oid: string;
  ctimeS: number;
  ctimeNs: number;
  mtimeS: number;
  mtimeNs: number;
  dev: number;
  ino: number;
  uid: number;
  gid: number;
  size: number;
  intentToAdd: boolean;
}

export interface GitIndex {
  entries: IndexEntry[];
  /** Stage-0 entries by path. */
  byPath: Map<string, IndexEntry>;
  /** Paths with stages 1-3. */
  unmerged: Map<string, IndexEntry[]>;
}

const dec = new TextDecoder();

function hex(b: Uint8Array, off: number): string {
  let s = '';
  for (let i = 0; i < 20; i++) s += b[off + i].toString(16).padStart(2, '0');
  return s;
}

export function emptyIndex(): GitIndex {
  return { entries: [], byPath: new Map(), unmerged: new Map() };
}

export function parseIndex(buf: Uint8Array): GitIndex {
  const idx = emptyIndex();
  if (buf.byteLength === 0) return idx;
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (dec.decode(buf.subarray(0, 4)) !== 'DIRC') throw new Error('index file corrupt (bad signature)');
  const version = dv.getUint32(4);
  if (version < 2 || version > 4) throw new Error(`index file corrupt (bad version ${version})`);
  const count = dv.getUint32(8);
  let off = 12;
  let prev = '';
  for (let n = 0; n < count; n++) {
    const start = off;
    const u = (k: number) => dv.getUint32(start + 4 * k);
    const flags = dv.getUint16(start + 60);
    let ext = 0;
    off = start + 62;
    if (flags & 0x4000) {
      ext = dv.getUint16(off);
      off += 2;
    }
    let path: string;
    if (version === 4) {
      // prefix compression: drop N bytes of the previous name, then a NUL-terminated suffix
      let drop = 0;
      let b = buf[off++];
      drop = b & 0x7f;
      while (b & 0x80) {
        b = buf[off++];
        drop = ((drop + 1) << 7) | (b & 0x7f);
      }
      const end = buf.indexOf(0, off);
      path = prev.slice(0, prev.length - drop) + dec.decode(buf.subarray(off, end));
      off = end + 1;
    } else {
      const end = buf.indexOf(0, off);
      path = dec.decode(buf.subarray(off, end));
      // entries are NUL-padded to a multiple of 8 bytes
      off = start + Math.ceil((end - start + 1) / 8) * 8;
    }
    prev = path;
    const e: IndexEntry = {
      path,
      stage: (flags >> 12) & 3,
      ctimeS: u(0),
      ctimeNs: u(1),
      mtimeS: u(2),
      mtimeNs: u(3),
      dev: u(4),
      ino: u(5),
      mode: u(6),
      uid: u(7),
      gid: u(8),
      size: u(9),
      oid: hex(buf, start + 40),
      intentToAdd: (ext & 0x2000) !== 0,
    };
    idx.entries.push(e);
    if (e.stage === 0) idx.byPath.set(path, e);
    else {
      const list = idx.unmerged.get(path) ?? [];
      list.push(e);
      idx.unmerged.set(path, list);
    }
  }
  return idx;
}

const enc = new TextEncoder();

/** Seconds and nanoseconds of a millisecond time (as isomorphic-git records them too). */
export function secNs(ms: number): [number, number] {
  const s = Math.floor(ms / 1000);
  return [s % 2 ** 32, Math.floor((ms - s * 1000) * 1000000) % 2 ** 32];
}

/** An index entry for a file whose stat data is `st` (null: zeros, so git re-checks it). */
export function makeEntry(path: string, mode: number, oid: string, st: { ctimeMs: number; mtimeMs: number; dev: number; ino: number; uid: number; gid: number; size: number } | null, stage = 0): IndexEntry {
  const [cs, cn] = st ? secNs(st.ctimeMs) : [0, 0];
  const [ms, mn] = st ? secNs(st.mtimeMs) : [0, 0];
  const u = (n: number) => (st ? n % 2 ** 32 : 0);
  return { path, stage, mode, oid, ctimeS: cs, ctimeNs: cn, mtimeS: ms, mtimeNs: mn, dev: u(st?.dev ?? 0), ino: u(st?.ino ?? 0), uid: u(st?.uid ?? 0), gid: u(st?.gid ?? 0), size: u(st?.size ?? 0), intentToAdd: false };
}

/** Rebuild the lookup maps after editing `entries`. */
export function reindex(idx: GitIndex): void {
  idx.byPath.clear();
  idx.unmerged.clear();
  for (const e of idx.entries) {
    if (e.stage === 0) idx.byPath.set(e.path, e);
    else {
      const l = idx.unmerged.get(e.path) ?? [];
      l.push(e);
      idx.unmerged.set(e.path, l);
    }
  }
}

const byteCompare = (a: Uint8Array, b: Uint8Array) => {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
};

/** The index file (version 2) for these entries, sorted as git requires, with its SHA-1 trailer. */
export async function serializeIndex(idx: GitIndex): Promise<Uint8Array> {
  const items = idx.entries.map((e) => ({ e, name: enc.encode(e.path) }));
  items.sort((a, b) => byteCompare(a.name, b.name) || a.e.stage - b.e.stage);
  let size = 12;
  for (const { name } of items) size += Math.ceil((62 + name.length + 1) / 8) * 8;
  const buf = new Uint8Array(size + 20);
  const dv = new DataView(buf.buffer);
  buf.set(enc.encode('DIRC'), 0);
  dv.setUint32(4, 2);
  dv.setUint32(8, items.length);
  let off = 12;
  for (const { e, name } of items) {
    const vals = [e.ctimeS, e.ctimeNs, e.mtimeS, e.mtimeNs, e.dev, e.ino, e.mode, e.uid, e.gid, e.size];
    vals.forEach((v, k) => dv.setUint32(off + 4 * k, v >>> 0));
    for (let k = 0; k < 20; k++) buf[off + 40 + k] = parseInt(e.oid.slice(2 * k, 2 * k + 2), 16);
    dv.setUint16(off + 60, (e.stage << 12) | Math.min(name.length, 0xfff));
    buf.set(name, off + 62);
    off += Math.ceil((62 + name.length + 1) / 8) * 8;
  }
  const sum = new Uint8Array(await crypto.subtle.digest('SHA-1', buf.subarray(0, size)));
  buf.set(sum, size);
  return buf;
}
