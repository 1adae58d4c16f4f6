// The host's package repository, as `agentos-software search/info/install NAME`
// reads it: the build output (dist/ beside the runtime bundle) on Node, /pkg/ on
// the page's origin in a browser. Read-only, and only its index and the files
// the index's packages list: a guest names a package and a listed path, never a
// host path or URL.

import { HOST_DIST_DIR } from '../host-dir.js';

/**
 * A file name as a URL path segment: escaped, except the characters a segment may hold as they are
 * (RFC 3986 pchar) — some static servers (vite preview's) do not decode `%40`, and npm's scoped
 * packages live under `node_modules/@scope/`.
 */
const pathSegment = (s: string): string => encodeURIComponent(s).replace(/%(40|3A|24|26|2B|2C|3B|3D)/g, (e) => decodeURIComponent(e));

export interface RepoEntry {
  name: string;
  version: string;
  description: string;
  commands: string[];
  files: number;
  bytes: number;
}

export type RepoFile = [path: string, mode: number];

export interface Repository {
  index(): Promise<RepoEntry[]>;
  /** The package's files and their modes; throws if the repository has no such package. */
  files(name: string): Promise<RepoFile[]>;
  /** One listed file of a package; `progress` gets the bytes read so far. */
  read(name: string, path: string, progress?: (bytes: number) => void): Promise<Uint8Array>;
}

const NODE_FS = 'node:fs/promises';
const CHUNK = 4 << 20;

/**
 * The repository: on Node its directory as a path (host-dir.ts), in a browser its URL under the page's origin.
 * A program shares this realm and can replace URL and the built-ins' methods before it calls in.
 */
const ROOT_URL: URL | null = HOST_DIST_DIR === null && typeof self !== 'undefined' ? new URL('/pkg/', self.location.href) : null;

/**
 * Whether `s` is a relative path of plain segments ([A-Za-z0-9._+@-]: npm's scopes have @; none of them only dots), checked with
 * comparisons and indexing alone, which no program can replace: on Node it is joined to the repository's
 * directory and opened, so it must not leave it, whatever the checks before it were made to answer.
 */
function plainPath(s: unknown): s is string {
  if (typeof s !== 'string' || s.length === 0 || s.length > 4096) return false;
  let chars = 0;
  let dots = 0;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s[i] : '/';
    if (c === '/') {
      if (chars === 0 || dots === chars) return false;
      chars = dots = 0;
      continue;
    }
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '.' || c === '_' || c === '-' || c === '+' || c === '@')) return false;
    chars++;
    if (c === '.') dots++;
  }
  return true;
}

/** A file of the repository, `path` relative to it (plain: plainPath). */
function fetchFile(path: string, progress?: (bytes: number) => void): Promise<Uint8Array> {
  if (!plainPath(path)) return Promise.reject(new Error(`not a file of the repository: ${String(path)}`));
  if (HOST_DIST_DIR !== null) return readHostFile(HOST_DIST_DIR + path, progress);
  if (ROOT_URL === null) return Promise.reject(new Error('no package repository here'));
  return fetchUrl(new URL(path.split('/').map(pathSegment).join('/'), ROOT_URL), progress);
}

async function readHostFile(path: string, progress?: (bytes: number) => void): Promise<Uint8Array> {
  const { open } = (await import(/* @vite-ignore */ NODE_FS)) as typeof import('node:fs/promises');
  const fh = await open(path);
  try {
    const size = (await fh.stat()).size;
    const out = new Uint8Array(size);
    for (let at = 0; at < size; ) {
      const { bytesRead } = await fh.read(out, at, Math.min(CHUNK, size - at), at);
      if (bytesRead === 0) break;
      at += bytesRead;
      progress?.(at);
    }
    return out;
  } finally {
    await fh.close();
  }
}

async function fetchUrl(url: URL, progress?: (bytes: number) => void): Promise<Uint8Array> {
  const r = await fetch(url);
  if (!r.ok || !r.body) throw new Error(`${r.status} ${r.statusText}`);
  const parts: Uint8Array[] = [];
  let n = 0;
  const reader = r.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    n += value.length;
    progress?.(n);
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const json = async <T>(path: string): Promise<T> => JSON.parse(new TextDecoder().decode(await fetchFile(path))) as T;

export function hostRepository(): Repository {
  let index: Promise<RepoEntry[]> | null = null;
  const listed = new Map<string, Promise<RepoFile[]>>();
  const repo: Repository = {
    index: () => (index ??= json<RepoEntry[]>('repository.json').catch(() => [])),
    async files(name) {
      if (!(await repo.index()).some((e) => e.name === name)) throw new Error(`no package '${name}' in the repository`);
      let l = listed.get(name);
      if (!l) listed.set(name, (l = json<RepoFile[]>(`${name}.files.json`)));
      return l;
    },
    async read(name, path, progress) {
      if (!(await repo.files(name)).some(([p]) => p === path)) throw new Error(`${name} has no file ${path}`);
      return fetchFile(`${name}/${path}`, progress);
    },
  };
  return repo;
}

/**
 * A file of the repository that is not an installable package's, read as the runtime that owns it
 * needs it (the `linux` runtime's Debian root, read a body at a time: src/runtimes/linux/rootfs.ts).
 * `path` is relative to the repository and chosen by that runtime, never by a guest.
 */
export function readRepositoryFile(path: string): Promise<Uint8Array> {
  return fetchFile(path);
}
