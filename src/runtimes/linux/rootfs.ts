// The guest's Debian root (decision 0079; `linux --root debian`): a read-only tree served over the
// same 9p share as agentOS's files, under ROOT_NAME in the share's top directory (a virtio 9p
// channel takes one mount only, so it cannot be a second mount of the same device). Directories
// and attributes come from the build's manifest (scripts/build-linux-root.mjs); a file's body is
// read from the repository (dist/ on Node, /pkg/ in a browser) only when the guest first reads it,
// then kept in memory up to BODY_CACHE_BYTES. Nothing in it can be written: every change is EROFS.

import { Errno, SysError } from '../../abi/errno.js';
import { readRepositoryFile } from '../js/repository.js';
import { noConflictingLock, Reader, RLERROR, T, Writer } from './p9.js';

/** The root's name in the share's top directory (not listed there; an agentOS file of that name is hidden from the guest). */
export const ROOT_NAME = '.linux-root';
/** Where the store is in the repository. */
const STORE = 'linux-root/';
/** Bodies kept in memory (the largest a small command reads, libpython, is ~6 MB). */
const BODY_CACHE_BYTES = 96 * 2 ** 20;
/** Store inodes are numbered from here, apart from agentOS's. */
const INO_BASE = 2 ** 40;
const IOUNIT = 128 * 1024 - 24;
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

interface Node {
  ino: number;
  mode: number;
  size: number;
  mtime: number;
  /** A regular file's body hash, a symlink's target. */
  body: string;
  children?: string[];
}

const isDir = (n: Node): boolean => (n.mode & S_IFMT) === S_IFDIR;
const isLink = (n: Node): boolean => (n.mode & S_IFMT) === S_IFLNK;

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The manifest, and the bodies read so far. */
export class RootStore {
  /** What was read from the repository: bodies and their compressed bytes (the manifest not counted). */
  readonly fetched = { bodies: 0, bytes: 0 };
  private readonly bodies = new Map<string, { data: Promise<Uint8Array>; size: number; bytes?: Uint8Array }>();
  private kept = 0;

  private constructor(readonly nodes: Map<string, Node>) {}

  /** Read the manifest; rejects when the root was not built. */
  static async load(): Promise<RootStore> {
    const manifest = JSON.parse(new TextDecoder().decode(await gunzip(await readRepositoryFile(`${STORE}manifest.gzip`)))) as {
      entries: [path: string, mode: number, size: number, mtime: number, body: string][];
    };
    const nodes = new Map<string, Node>();
    manifest.entries.forEach(([path, mode, size, mtime, body], i) => {
      nodes.set(path, { ino: INO_BASE + i, mode, size, mtime, body, children: (mode & S_IFMT) === S_IFDIR ? [] : undefined });
      if (path) nodes.get(path.slice(0, Math.max(0, path.lastIndexOf('/'))))?.children?.push(path.slice(path.lastIndexOf('/') + 1));
    });
    return new RootStore(nodes);
  }

  node(path: string): Node {
    const n = this.nodes.get(path);
    if (!n) throw new SysError(Errno.ENOENT);
    return n;
  }

  /** The body if it is in memory already. */
  loaded(n: Node): Uint8Array | undefined {
    return this.bodies.get(n.body)?.bytes;
  }

  /** A regular file's body: read and gunzipped on first use, then kept (the least recently used leave first). */
  body(n: Node): Promise<Uint8Array> {
    const hit = this.bodies.get(n.body);
    if (hit) {
      this.bodies.delete(n.body);
      this.bodies.set(n.body, hit);
      return hit.data;
    }
    const entry: { data: Promise<Uint8Array>; size: number; bytes?: Uint8Array } = {
      data: readRepositoryFile(`${STORE}objects/${n.body}.gzip`).then(async (gz) => {
        this.fetched.bodies++;
        this.fetched.bytes += gz.length;
        return (entry.bytes = await gunzip(gz));
      }),
      size: n.size,
    };
    const data = entry.data;
    this.bodies.set(n.body, entry);
    this.kept += n.size;
    data.catch(() => this.forget(n.body));
    for (const hash of this.bodies.keys()) {
      if (this.kept <= BODY_CACHE_BYTES || hash === n.body) break;
      this.forget(hash);
    }
    return data;
  }

  private forget(hash: string): void {
    this.kept -= this.bodies.get(hash)?.size ?? 0;
    this.bodies.delete(hash);
  }
}

/** The 9P2000.L side: the root's fids and its read-only operations. */
export class RootFs {
  private fids = new Map<number, { path: string; entries?: string[] }>();

  constructor(readonly store: RootStore) {}

  /**
   * Whether a request is the root's: one on a fid of its own, or a walk from the share's top
   * directory (`atTop`) into ROOT_NAME.
   */
  claims(req: Uint8Array, atTop: (fid: number) => boolean): boolean {
    const type = req[4];
    if (type === T.version || type === T.attach || type === T.flush || req.length < 11) return false;
    const view = new DataView(req.buffer, req.byteOffset, req.byteLength);
    const fid = view.getUint32(7, true);
    if (this.fids.has(fid)) return true;
    if (type !== T.walk || req.length < 17 || !atTop(fid) || view.getUint16(15, true) === 0) return false;
    const len = view.getUint16(17, true);
    return new TextDecoder().decode(req.subarray(19, 19 + len)) === ROOT_NAME;
  }

  reset(): void {
    this.fids.clear();
  }

  /**
   * The reply; a Promise only when a read needs a body not yet in memory (then the request is
   * answered again once it is). Answering at once matters: v86 delivers a late reply only when its
   * idle guest next wakes, which made every message cost milliseconds.
   */
  handle(req: Uint8Array): Uint8Array | Promise<Uint8Array> {
    const type = req[4];
    const tag = req[5] | (req[6] << 8);
    const w = new Writer();
    const error = (e: unknown): Uint8Array => new Writer().u32(e instanceof SysError ? e.errno : Errno.EIO).done(RLERROR, tag);
    try {
      const body = this.dispatch(type, new Reader(req), w);
      return body ? body.then(() => this.handle(req), error) : w.done(type + 1, tag);
    } catch (e) {
      return error(e);
    }
  }

  private fid(n: number): { path: string; entries?: string[] } {
    const f = this.fids.get(n);
    if (!f) throw new SysError(Errno.EBADF);
    return f;
  }

  private qid(w: Writer, n: Node): Writer {
    return w.u8(isDir(n) ? 0x80 : isLink(n) ? 0x02 : 0).u32(n.mtime).u64(n.ino);
  }

  /** Answers into `w`; or returns the body a read waits for, without answering. */
  private dispatch(type: number, r: Reader, w: Writer): Promise<Uint8Array> | undefined {
    const store = this.store;
    switch (type) {
      case T.walk: {
        const fid = r.u32();
        const newfid = r.u32();
        const names = Array.from({ length: r.u16() }, () => r.str());
        const from = this.fids.get(fid);
        // From the share's top directory, the first name is ROOT_NAME itself.
        let path = from ? from.path : '';
        const qids: Node[] = from ? [] : [store.node('')];
        for (const name of from ? names : names.slice(1)) {
          const next = name === '..' ? path.slice(0, Math.max(0, path.lastIndexOf('/'))) : name === '.' ? path : path ? `${path}/${name}` : name;
          const n = store.nodes.get(next);
          if (!n) {
            if (qids.length === 0) throw new SysError(Errno.ENOENT);
            break;
          }
          qids.push(n);
          path = next;
        }
        if (qids.length === names.length) this.fids.set(newfid, { path });
        w.u16(qids.length);
        for (const q of qids) this.qid(w, q);
        return;
      }
      case T.lopen: {
        const f = this.fid(r.u32());
        const flags = r.u32();
        if (flags & 3 || flags & 0o1000) throw new SysError(Errno.EROFS); // O_WRONLY, O_RDWR, O_TRUNC
        const n = store.node(f.path);
        f.entries = undefined;
        this.qid(w, n).u32(IOUNIT);
        return;
      }
      case T.getattr: {
        const n = store.node(this.fid(r.u32()).path);
        w.u64(0x7ff);
        this.qid(w, n).u32(n.mode).u32(0).u32(0).u64(isDir(n) ? 2 : 1).u64(0).u64(isLink(n) ? new TextEncoder().encode(n.body).length : n.size);
        w.u64(4096).u64(Math.ceil(n.size / 512));
        for (let i = 0; i < 3; i++) w.u64(n.mtime).u64(0);
        w.u64(0).u64(0).u64(0).u64(0);
        return;
      }
      case T.readlink: {
        const n = store.node(this.fid(r.u32()).path);
        if (!isLink(n)) throw new SysError(Errno.EINVAL);
        w.str(n.body);
        return;
      }
      case T.read: {
        const n = store.node(this.fid(r.u32()).path);
        const offset = r.u64();
        const count = Math.min(r.u32(), IOUNIT);
        if (isDir(n)) throw new SysError(Errno.EISDIR);
        let data: Uint8Array = new Uint8Array(0);
        if (n.size && offset < n.size) {
          const body = store.loaded(n);
          if (!body) return store.body(n);
          data = body.subarray(offset, offset + count);
        }
        w.u32(data.length).bytes(data);
        return;
      }
      case T.readdir: {
        const f = this.fid(r.u32());
        const offset = r.u64();
        const count = r.u32();
        const dir = store.node(f.path);
        if (!dir.children) throw new SysError(Errno.ENOTDIR);
        if (!f.entries || offset === 0) f.entries = ['.', '..', ...dir.children];
        const body = new Writer();
        let size = 0;
        for (let i = offset; i < f.entries.length; i++) {
          const name = f.entries[i];
          const n = name === '.' || name === '..' ? dir : store.node(f.path ? `${f.path}/${name}` : name);
          const bytes = new TextEncoder().encode(name);
          const entry = 13 + 8 + 1 + 2 + bytes.length;
          if (size + entry > count) break;
          this.qid(body, n).u64(i + 1).u8(isDir(n) ? 4 : isLink(n) ? 10 : 8).u16(bytes.length).bytes(bytes);
          size += entry;
        }
        const data = body.done(0, 0).subarray(7);
        w.u32(data.length).bytes(data);
        return;
      }
      case T.statfs: {
        this.fid(r.u32());
        w.u32(0x01021997).u32(4096).u64(0).u64(0).u64(0).u64(store.nodes.size).u64(0).u64(0).u32(255);
        return;
      }
      case T.clunk:
      case T.remove: {
        const n = r.u32();
        this.fid(n);
        this.fids.delete(n);
        if (type === T.remove) throw new SysError(Errno.EROFS); // the fid is clunked all the same
        return;
      }
      case T.fsync: this.fid(r.u32()); return;
      case T.lock: w.u8(0); return;
      case T.getlock: {
        this.fid(r.u32());
        noConflictingLock(r, w);
        return;
      }
      case T.xattrwalk: throw new SysError(Errno.ENOTSUP);
      default: throw new SysError(Errno.EROFS);
    }
  }
}

let loading: Promise<RootStore> | null = null;

/** The Debian root's store, read once per worker (again after a failure: the root may be built since). */
export function debianRoot(): Promise<RootStore> {
  loading ??= RootStore.load().catch((e: unknown) => {
    loading = null;
    throw e;
  });
  return loading;
}
