// The async half of a browser directory mount (dirfs.ts): runs in its own
// worker, owns a FileSystemDirectoryHandle — an OPFS directory, or one the
// user picked with showDirectoryPicker() — and answers the kernel's requests
// through a SharedArrayBuffer while the kernel waits on it with Atomics.wait.
//
// Reply layout: Int32 [0] state (0 waiting, 1 done), [1] errno, [2] length;
// bytes from offset 16. Handles can only name children of the directory, so
// nothing outside it is reachable whatever the names say.

export interface DirRequest {
  op: 'stat' | 'readdir' | 'create' | 'mkdir' | 'remove' | 'rename' | 'read' | 'write' | 'truncate';
  path: string[];
  /** rename: the destination. */
  to?: string[];
  pos?: number;
  len?: number;
  size?: number;
  data?: Uint8Array;
}

export interface DirStat {
  kind: 'file' | 'directory';
  size: number;
  mtimeMs: number;
}

export const REPLY_BYTES = 4 << 20;
const ENOENT = 2, EIO = 5, EACCES = 13, EEXIST = 17, EXDEV = 18, ENOTDIR = 20, EISDIR = 21, EINVAL = 22, ENOSPC = 28, ENOTEMPTY = 39, EBUSY = 16;

type SyncHandle = {
  read(b: Uint8Array, o: { at: number }): number;
  write(b: Uint8Array, o: { at: number }): number;
  truncate(n: number): void;
  getSize(): number;
  flush(): void;
  close(): void;
};

/** Serve requests for `root` on `port`, answering in `reply`. */
export function serveDirectory(root: FileSystemDirectoryHandle, reply: SharedArrayBuffer, port: { onmessage: ((e: MessageEvent<DirRequest>) => void) | null }): void {
  const ctl = new Int32Array(reply, 0, 4);
  const out = new Uint8Array(reply, 16);
  const enc = new TextEncoder();
  /** OPFS files are read and written through sync access handles kept open (an LRU of 32). */
  const handles = new Map<string, SyncHandle>();
  let queue = Promise.resolve();

  const answer = (errno: number, bytes?: Uint8Array) => {
    if (bytes) out.set(bytes);
    ctl[1] = errno;
    ctl[2] = bytes?.length ?? 0;
    Atomics.store(ctl, 0, 1);
    Atomics.notify(ctl, 0);
  };
  const json = (v: unknown) => enc.encode(JSON.stringify(v));

  async function dir(path: string[]): Promise<FileSystemDirectoryHandle> {
    let d = root;
    for (const name of path) d = await d.getDirectoryHandle(name);
    return d;
  }

  async function entry(path: string[]): Promise<FileSystemHandle> {
    if (path.length === 0) return root;
    const parent = await dir(path.slice(0, -1));
    const name = path[path.length - 1];
    try {
      return await parent.getFileHandle(name);
    } catch (e) {
      if ((e as DOMException).name !== 'TypeMismatchError') throw e;
      return parent.getDirectoryHandle(name);
    }
  }

  async function file(path: string[]): Promise<FileSystemFileHandle> {
    const h = await entry(path);
    if (h.kind !== 'file') throw Object.assign(new Error('is a directory'), { errno: EISDIR });
    return h as FileSystemFileHandle;
  }

  async function sync(path: string[]): Promise<SyncHandle | null> {
    const key = path.join('/');
    const open = handles.get(key);
    if (open) return open;
    const fh = await file(path);
    const make = (fh as unknown as { createSyncAccessHandle?: () => Promise<SyncHandle> }).createSyncAccessHandle;
    if (!make) return null;
    let h: SyncHandle;
    try {
      h = await make.call(fh);
    } catch {
      return null; // not OPFS (a picked directory): writable streams instead
    }
    if (handles.size >= 32) closeHandle(handles.keys().next().value!);
    handles.set(key, h);
    return h;
  }

  function closeHandle(key: string): void {
    const h = handles.get(key);
    if (!h) return;
    handles.delete(key);
    h.flush();
    h.close();
  }

  function closeUnder(path: string[]): void {
    const key = path.join('/');
    for (const k of [...handles.keys()]) if (k === key || k.startsWith(key + '/')) closeHandle(k);
  }

  async function handle(r: DirRequest): Promise<Uint8Array | undefined> {
    switch (r.op) {
      case 'stat': {
        const h = await entry(r.path);
        if (h.kind === 'directory') return json({ kind: 'directory', size: 0, mtimeMs: 0 } satisfies DirStat);
        const open = handles.get(r.path.join('/'));
        const f = await (h as FileSystemFileHandle).getFile();
        return json({ kind: 'file', size: open ? open.getSize() : f.size, mtimeMs: f.lastModified } satisfies DirStat);
      }
      case 'readdir': {
        const names: [string, string][] = [];
        for await (const [name, h] of (await dir(r.path)) as unknown as AsyncIterable<[string, FileSystemHandle]>) names.push([name, h.kind]);
        return json(names);
      }
      case 'create':
        await (await dir(r.path.slice(0, -1))).getFileHandle(r.path[r.path.length - 1], { create: true });
        return;
      case 'mkdir':
        await (await dir(r.path.slice(0, -1))).getDirectoryHandle(r.path[r.path.length - 1], { create: true });
        return;
      case 'remove':
        closeUnder(r.path);
        await (await dir(r.path.slice(0, -1))).removeEntry(r.path[r.path.length - 1]);
        return;
      case 'rename': {
        closeUnder(r.path);
        closeUnder(r.to!);
        const h = (await entry(r.path)) as unknown as { move?(d: FileSystemDirectoryHandle, n: string): Promise<void> };
        // Browsers move files but not (yet) directories: mv then copies, as across filesystems.
        if (typeof h.move !== 'function') throw Object.assign(new Error('cannot move'), { errno: EXDEV });
        const target = await dir(r.to!.slice(0, -1));
        const name = r.to![r.to!.length - 1];
        // move() replaces nothing: clear a (compatible, checked by the VFS) target first.
        await target.removeEntry(name).catch(() => {});
        await h.move(target, name);
        return;
      }
      case 'read': {
        const len = Math.min(r.len!, REPLY_BYTES);
        const h = await sync(r.path);
        if (h) {
          const buf = new Uint8Array(len);
          return buf.subarray(0, h.read(buf, { at: r.pos! }));
        }
        const f = await (await file(r.path)).getFile();
        return new Uint8Array(await f.slice(r.pos!, r.pos! + len).arrayBuffer());
      }
      case 'write':
      case 'truncate': {
        const h = await sync(r.path);
        if (h) {
          if (r.op === 'write') h.write(r.data!, { at: r.pos! });
          else h.truncate(r.size!);
          h.flush();
          return;
        }
        const w = await (await file(r.path)).createWritable({ keepExistingData: true });
        if (r.op === 'write') await w.write({ type: 'write', position: r.pos!, data: r.data! as Uint8Array<ArrayBuffer> });
        else await w.truncate(r.size!);
        await w.close();
        return;
      }
      default:
        throw Object.assign(new Error(`unknown op ${String((r as DirRequest).op)}`), { errno: EINVAL });
    }
  }

  port.onmessage = (e) => {
    // One request at a time, in order: the kernel waits for each answer.
    queue = queue.then(() => handle(e.data).then((bytes) => answer(0, bytes), (err: unknown) => answer(errnoOf(err))));
  };
}

function errnoOf(e: unknown): number {
  const own = (e as { errno?: number }).errno;
  if (own) return own;
  switch ((e as DOMException).name) {
    case 'NotFoundError': return ENOENT;
    case 'TypeMismatchError': return ENOTDIR;
    case 'InvalidModificationError': return ENOTEMPTY;
    case 'NotAllowedError': case 'SecurityError': return EACCES;
    case 'QuotaExceededError': return ENOSPC;
    case 'NoModificationAllowedError': return EBUSY;
    case 'InvalidStateError': return EEXIST;
    // A move the browser cannot do (a directory, in some versions): mv then copies, as across filesystems.
    case 'NotSupportedError': return EXDEV;
    default:
      console.warn('agentos dirfs:', e);
      return EIO;
  }
}
