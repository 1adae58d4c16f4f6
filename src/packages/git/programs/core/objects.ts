// Reading objects through isomorphic-git (loose and packed alike), parsed
// the way the porcelain needs them: commits with their raw identity lines,
// trees flattened to path → (mode, oid), blobs as bytes.

import { zlibSync } from 'fflate';
import * as git from 'isomorphic-git';
import type { Ctx } from './ctx.js';
import { joinRel } from './path.js';

export interface Ident {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  time: number;
  /** As written: `+0100`, `-0500`. */
  tz: string;
}

export interface Commit {
  oid: string;
  tree: string;
  parents: string[];
  author: Ident;
  committer: Ident;
  /** The message as stored (normally ending in a newline). */
  message: string;
}

export interface TreeItem {
  mode: number;
  oid: string;
}

export type FlatTree = Map<string, TreeItem>;

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
export const ZERO_OID = '0'.repeat(40);

const dec = new TextDecoder();
const enc = new TextEncoder();

export function parseIdent(line: string): Ident {
  const m = /^(.*?) ?<([^>]*)> (\d+) ([+-]\d{4})$/.exec(line);
  if (!m) return { name: line, email: '', time: 0, tz: '+0000' };
  return { name: m[1], email: m[2], time: Number(m[3]), tz: m[4] };
}

export const formatIdent = (i: Ident): string => `${i.name} <${i.email}> ${i.time} ${i.tz}`;

export interface NewCommit {
  tree: string;
  parents: string[];
  author: Ident;
  committer: Ident;
  message: string;
}

/** A commit object's text, as git writes it. */
export function commitText(c: NewCommit): string {
  return `tree ${c.tree}\n${c.parents.map((p) => `parent ${p}\n`).join('')}author ${formatIdent(c.author)}\ncommitter ${formatIdent(c.committer)}\n\n${c.message}`;
}

export function parseCommit(oid: string, raw: Uint8Array): Commit {
  const text = dec.decode(raw);
  const split = text.indexOf('\n\n');
  const head = split < 0 ? text : text.slice(0, split);
  const c: Commit = { oid, tree: '', parents: [], author: parseIdent(''), committer: parseIdent(''), message: split < 0 ? '' : text.slice(split + 2) };
  for (const line of head.split('\n')) {
    const sp = line.indexOf(' ');
    const k = line.slice(0, sp);
    const v = line.slice(sp + 1);
    if (k === 'tree') c.tree = v;
    else if (k === 'parent') c.parents.push(v);
    else if (k === 'author') c.author = parseIdent(v);
    else if (k === 'committer') c.committer = parseIdent(v);
  }
  return c;
}

export interface Tag {
  oid: string;
  object: string;
  type: string;
  name: string;
  tagger: Ident | null;
  message: string;
}

export function parseTag(oid: string, raw: Uint8Array): Tag {
  const text = dec.decode(raw);
  const split = text.indexOf('\n\n');
  const head = split < 0 ? text : text.slice(0, split);
  const t: Tag = { oid, object: '', type: '', name: '', tagger: null, message: split < 0 ? '' : text.slice(split + 2) };
  for (const line of head.split('\n')) {
    const sp = line.indexOf(' ');
    const k = line.slice(0, sp);
    const v = line.slice(sp + 1);
    if (k === 'object') t.object = v;
    else if (k === 'type') t.type = v;
    else if (k === 'tag') t.name = v;
    else if (k === 'tagger') t.tagger = parseIdent(v);
  }
  return t;
}

/** Cached object access for one invocation. */
export class Store {
  private commits = new Map<string, Commit>();
  private trees = new Map<string, FlatTree>();
  /** Object directories known to exist. */
  private dirs = new Set<string>();

  constructor(private readonly ctx: Ctx) {}

  /** Raw object content and type; null when missing. */
  async read(oid: string): Promise<{ type: string; data: Uint8Array } | null> {
    try {
      const r = await git.readObject({ ...this.ctx.iso(), oid, format: 'content' });
      return { type: r.type, data: r.object as Uint8Array };
    } catch (e) {
      if ((e as { code?: string }).code === 'NotFoundError') return null;
      throw e;
    }
  }

  async type(oid: string): Promise<string | null> {
    return (await this.read(oid))?.type ?? null;
  }

  async commit(oid: string): Promise<Commit> {
    const hit = this.commits.get(oid);
    if (hit) return hit;
    const o = await this.read(oid);
    if (!o || o.type !== 'commit') this.ctx.fatal(`bad object ${oid}`);
    const c = parseCommit(oid, o.data);
    this.commits.set(oid, c);
    return c;
  }

  async tag(oid: string): Promise<Tag> {
    const o = await this.read(oid);
    if (!o || o.type !== 'tag') this.ctx.fatal(`bad object ${oid}`);
    return parseTag(oid, o.data);
  }

  async blob(oid: string): Promise<Uint8Array> {
    const o = await this.read(oid);
    if (!o) this.ctx.fatal(`bad object ${oid}`);
    return o.data;
  }

  /** One tree level: name → item (mode 040000 for subtrees). */
  async treeLevel(oid: string): Promise<{ name: string; mode: number; oid: string }[]> {
    const r = await git.readTree({ ...this.ctx.iso(), oid });
    return r.tree.map((e) => ({ name: e.path, mode: parseInt(e.mode, 8), oid: e.oid }));
  }

  /** Every blob (and gitlink) under a tree, by repo-relative path. */
  async flatTree(oid: string): Promise<FlatTree> {
    const hit = this.trees.get(oid);
    if (hit) return hit;
    const out: FlatTree = new Map();
    const walk = async (tree: string, prefix: string): Promise<void> => {
      for (const e of await this.treeLevel(tree)) {
        const p = joinRel(prefix, e.name);
        if (e.mode === 0o040000) await walk(e.oid, p);
        else out.set(p, { mode: e.mode, oid: e.oid });
      }
    };
    if (oid !== EMPTY_TREE) await walk(oid, '');
    this.trees.set(oid, out);
    return out;
  }

  /** The tree of a commit (or the empty tree for null). */
  async commitTree(oid: string | null): Promise<FlatTree> {
    return oid ? this.flatTree((await this.commit(oid)).tree) : new Map();
  }

  /** Follow tags to a commit; null when the object is not one. */
  async peelToCommit(oid: string): Promise<string | null> {
    for (let i = 0; i < 32; i++) {
      const o = await this.read(oid);
      if (!o) return null;
      if (o.type === 'commit') return oid;
      if (o.type !== 'tag') return null;
      oid = parseTag(oid, o.data).object;
    }
    return null;
  }

  /**
   * Store an object as a loose object. (Written here rather than through
   * isomorphic-git's writeObject: its per-object CompressionStream made
   * `git add` of many small files ten times slower; fflate deflates in place.)
   */
  async write(type: 'blob' | 'tree' | 'commit' | 'tag', data: Uint8Array | string): Promise<string> {
    const body = typeof data === 'string' ? enc.encode(data) : data;
    const header = enc.encode(`${type} ${body.byteLength}\0`);
    const raw = new Uint8Array(header.byteLength + body.byteLength);
    raw.set(header);
    raw.set(body, header.byteLength);
    const oid = toHex(new Uint8Array(await crypto.subtle.digest('SHA-1', raw)));
    const dir = `${this.ctx.repo().commondir}/objects/${oid.slice(0, 2)}`;
    if (!this.dirs.has(dir)) {
      if (!this.ctx.exists(dir)) this.ctx.sys.mkdir(dir, 0o777);
      this.dirs.add(dir);
    }
    // a temporary name, then rename (over an identical object, if there is one): readers never see half an object
    const tmp = `${dir}/tmp_obj_${oid.slice(2, 10)}`;
    this.ctx.sys.writeFile(tmp, zlibSync(raw), 0o444);
    this.ctx.sys.rename(tmp, `${dir}/${oid.slice(2)}`);
    return oid;
  }
}

function toHex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

/** SHA-1 of a blob with this content, as git names it. */
export async function hashBlob(data: Uint8Array): Promise<string> {
  // WebCrypto needs a secure context, which SharedArrayBuffer (so agentOS) requires anyway
  const header = enc.encode(`blob ${data.byteLength}\0`);
  const buf = new Uint8Array(header.byteLength + data.byteLength);
  buf.set(header);
  buf.set(data, header.byteLength);
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-1', buf)));
}
