// git archive [--format=<fmt>] [--prefix=<prefix>/] [-o <file>] [-l] [-v] [-0 | ... | -9]
//             <tree-ish> [<path>...]
//
// A tree as a tar (byte for byte as git writes it: a pax global header
// naming the commit, ustar entries with tar.umask 002, 10240-byte blocks)
// or zip archive (git's headers, extended-timestamp fields and the commit
// id as the comment), or tar.gz.

import { deflateSync, gzipSync } from 'fflate';
import { O_CREAT, O_TRUNC, O_WRONLY } from '../../../../abi/fcntl.js';
import { crc32 } from '../../../../common/crc32.js';
import type { Ctx } from '../core/ctx.js';
import { localTz } from '../core/date.js';
import { Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { pathspec } from '../core/pathspec.js';
import { AmbiguousOid, resolveRev } from '../core/revs.js';

const USAGE = `usage: git archive [<options>] <tree-ish> [<path>...]
   or: git archive --list
   or: git archive --remote <repo> [--exec <cmd>] [<options>] <tree-ish> [<path>...]
   or: git archive --remote <repo> [--exec <cmd>] --list

    --format <fmt>        archive format
    --prefix <prefix>     prepend prefix to each pathname in the archive
    --add-file <file>     add untracked file to archive
    --add-virtual-file <path:content>
                          add untracked file to archive
    -o, --output <file>   write the archive to this file
    --worktree-attributes
                          read .gitattributes in working directory
    -v, --verbose         report archived files on stderr
    -NUM                  set compression level

    -l, --list            list supported archive formats

    --remote <repo>       retrieve the archive from remote repository <repo>
    --exec <command>      path to the remote git-upload-archive command

`;

interface Entry {
  path: string;
  mode: number;
  oid: string;
  data: Uint8Array | null;
}

const enc = new TextEncoder();

// ---- tar ----------------------------------------------------------------------------

const RECORD = 512;
const BLOCK = RECORD * 20;

function octal(buf: Uint8Array, off: number, len: number, v: number): void {
  buf.set(enc.encode(v.toString(8).padStart(len - 1, '0')), off);
}

/** A ustar header as archive-tar.c's prepare_header fills it. */
function tarHeader(name: Uint8Array, prefix: Uint8Array | null, mode: number, size: number, mtime: number, type: string, linkname: Uint8Array | null): Uint8Array {
  const h = new Uint8Array(RECORD);
  h.set(name.subarray(0, 100), 0);
  octal(h, 100, 8, mode & 0o7777);
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  octal(h, 124, 12, size);
  octal(h, 136, 12, mtime);
  h[156] = type.charCodeAt(0);
  if (linkname) h.set(linkname.subarray(0, 100), 157);
  h.set(enc.encode('ustar\0'), 257);
  h.set(enc.encode('00'), 263);
  h.set(enc.encode('root'), 265);
  h.set(enc.encode('root'), 297);
  octal(h, 329, 8, 0);
  octal(h, 337, 8, 0);
  if (prefix) h.set(prefix.subarray(0, 155), 345);
  let sum = 8 * 32;
  for (let i = 0; i < RECORD; i++) if (i < 148 || i >= 156) sum += h[i];
  octal(h, 148, 8, sum);
  return h;
}

/** "%u %s=%s\n" where the length counts itself. */
function paxRecord(key: string, value: Uint8Array): Uint8Array {
  let len = 1 + 1 + key.length + 1 + value.length + 1;
  for (let t = 1; Math.floor(len / 10) >= t; t *= 10) len++;
  const head = enc.encode(`${len} ${key}=`);
  const out = new Uint8Array(head.length + value.length + 1);
  out.set(head);
  out.set(value, head.length);
  out[out.length - 1] = 0x0a;
  return out;
}

const padded = (b: Uint8Array) => {
  const out = new Uint8Array(Math.ceil(b.length / RECORD) * RECORD);
  out.set(b);
  return out;
};

function tarArchive(entries: Entry[], mtime: number, commit: string | null): Uint8Array[] {
  const parts: Uint8Array[] = [];
  if (commit) {
    const rec = paxRecord('comment', enc.encode(commit));
    parts.push(tarHeader(enc.encode('pax_global_header'), null, 0o100666, rec.length, mtime, 'g', null), padded(rec));
  }
  for (const e of entries) {
    const path = enc.encode(e.path);
    let type: string;
    let mode: number;
    if (e.mode === 0o040000 || e.mode === 0o160000) [type, mode] = ['5', (e.mode | 0o777) & ~0o002];
    else if (e.mode === 0o120000) [type, mode] = ['2', e.mode | 0o777];
    else [type, mode] = ['0', (e.mode | (e.mode & 0o100 ? 0o777 : 0o666)) & ~0o002];
    const ext: Uint8Array[] = [];
    let name = path;
    let prefix: Uint8Array | null = null;
    if (path.length > 100) {
      // split at a '/' so the rest fits in name, else a pax "path" record
      let i = path.length;
      if (i > 1 && path[i - 1] === 0x2f) i--;
      if (i > 155) i = 155;
      do i--;
      while (i > 0 && path[i] !== 0x2f);
      const rest = path.length - i - 1;
      if (i > 0 && rest <= 100) {
        prefix = path.subarray(0, i);
        name = path.subarray(i + 1);
      } else {
        name = enc.encode(`${e.oid}.data`);
        ext.push(paxRecord('path', path));
      }
    }
    let link: Uint8Array | null = null;
    if (type === '2') {
      link = e.data!;
      if (link.length > 100) {
        ext.push(paxRecord('linkpath', link));
        link = enc.encode(`see ${e.oid}.paxheader`);
      }
    }
    if (ext.length) {
      const body = new Uint8Array(ext.reduce((n, x) => n + x.length, 0));
      let off = 0;
      for (const x of ext) {
        body.set(x, off);
        off += x.length;
      }
      parts.push(tarHeader(enc.encode(`${e.oid}.paxheader`), null, 0o100666, body.length, mtime, 'x', null), padded(body));
    }
    const size = type === '0' ? e.data!.length : 0;
    parts.push(tarHeader(name, prefix, mode, size, mtime, type, link));
    if (size) parts.push(padded(e.data!));
  }
  // the end: zeros to the next full 10240-byte block, with at least two 512-byte records of them
  const total = parts.reduce((n, p) => n + p.length, 0);
  let tail = BLOCK - (total % BLOCK);
  if (tail < 2 * RECORD) tail += BLOCK;
  parts.push(new Uint8Array(tail));
  return parts;
}

// ---- zip ----------------------------------------------------------------------------

class Bytes {
  readonly parts: Uint8Array[] = [];
  length = 0;
  le(n: number, v: number): void {
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) b[i] = Math.floor(v / 2 ** (8 * i)) & 0xff;
    this.add(b);
  }
  add(b: Uint8Array): void {
    this.parts.push(b);
    this.length += b.length;
  }
}

function zipArchive(entries: Entry[], mtime: number, commit: string | null, level: number): Uint8Array[] {
  // MS-DOS date and time, local time as git's dos_time computes them
  const tz = localTz(mtime);
  const off = (tz[0] === '-' ? -1 : 1) * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(3))) * 60;
  const d = new Date((mtime + off) * 1000);
  const dosDate = d.getUTCDate() + (d.getUTCMonth() + 1) * 32 + (d.getUTCFullYear() - 1980) * 512;
  const dosTime = Math.floor(d.getUTCSeconds() / 2) + d.getUTCMinutes() * 32 + d.getUTCHours() * 2048;
  const out = new Bytes();
  const dir = new Bytes();
  let count = 0;
  for (const e of entries) {
    const path = enc.encode(e.path);
    const isDir = e.mode === 0o040000 || e.mode === 0o160000;
    const isLink = e.mode === 0o120000;
    const data = isDir ? new Uint8Array(0) : e.data!;
    let method = 0;
    let attr2 = 0;
    let creator = 0;
    const flags = [...e.path].some((ch) => ch.charCodeAt(0) > 0x7f) ? 0x800 : 0;
    if (isDir) attr2 = 16;
    else {
      attr2 = isLink ? (e.mode | 0o777) * 65536 : e.mode & 0o111 ? e.mode * 65536 : 0;
      if (isLink || e.mode & 0o111) creator = 0x0317;
      if (!isLink && level !== 0 && data.length > 0) method = 8;
    }
    const crc = isDir ? 0 : crc32(data) >>> 0;
    let body = data;
    if (method === 8) {
      const z = deflateSync(data, { level: level as 1 });
      if (z.length >= data.length) method = 0;
      else body = z;
    }
    const extra = new Bytes();
    extra.le(2, 0x5455);
    extra.le(2, 5);
    extra.le(1, 1);
    extra.le(4, mtime);
    const extraBytes = Uint8Array.from(extra.parts.flatMap((p) => [...p]));
    const offset = out.length;
    out.le(4, 0x04034b50);
    out.le(2, 10);
    out.le(2, flags);
    out.le(2, method);
    out.le(2, dosTime);
    out.le(2, dosDate);
    out.le(4, crc);
    out.le(4, body.length);
    out.le(4, data.length);
    out.le(2, path.length);
    out.le(2, extraBytes.length);
    out.add(path);
    out.add(extraBytes);
    if (body.length) out.add(body);
    const binary = isDir ? -1 : data.subarray(0, 8000).includes(0) ? 1 : 0;
    dir.le(4, 0x02014b50);
    dir.le(2, creator);
    dir.le(2, 10);
    dir.le(2, flags);
    dir.le(2, method);
    dir.le(2, dosTime);
    dir.le(2, dosDate);
    dir.le(4, crc);
    dir.le(4, body.length);
    dir.le(4, data.length);
    dir.le(2, path.length);
    dir.le(2, extraBytes.length);
    dir.le(2, 0);
    dir.le(2, 0);
    dir.le(2, binary === 0 ? 1 : 0);
    dir.le(4, attr2);
    dir.le(4, offset);
    dir.add(path);
    dir.add(extraBytes);
    count++;
  }
  const dirStart = out.length;
  for (const p of dir.parts) out.add(p);
  out.le(4, 0x06054b50);
  out.le(2, 0);
  out.le(2, 0);
  out.le(2, count);
  out.le(2, count);
  out.le(4, dir.length);
  out.le(4, dirStart);
  out.le(2, commit ? 40 : 0);
  if (commit) out.add(enc.encode(commit));
  return out.parts;
}

// ---- the command -------------------------------------------------------------------

const FORMATS = ['tar', 'tgz', 'tar.gz', 'zip'];

function formatOf(file: string): string | null {
  for (const f of ['tar.gz', 'tgz', 'tar', 'zip']) if (file.endsWith(`.${f}`)) return f;
  return null;
}

export async function archive(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    {
      '|format': 'str', '|prefix': 'str', '|add-file': 'str', '|add-virtual-file': 'str', 'o|output': 'str', '|worktree-attributes': 'bool', 'v|verbose': 'bool',
      'l|list': 'bool', '|remote': 'str', '|exec': 'str', ...Object.fromEntries([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => [String(n), 'bool'])),
    },
    USAGE,
  );
  if (o.has('list')) {
    ctx.print(FORMATS.map((f) => `${f}\n`).join(''));
    return 0;
  }
  if (o.given('remote')) ctx.fatal('git archive --remote is not supported by agentOS git');
  if (o.given('add-file') || o.given('add-virtual-file')) ctx.fatal('--add-file is not supported by agentOS git');
  ctx.repo();
  const store = new Store(ctx);
  if (!o.operands.length) {
    ctx.err(USAGE);
    return 129;
  }
  const output = o.get('output');
  const format = o.get('format') ?? (output ? formatOf(output) : null) ?? 'tar';
  if (!FORMATS.includes(format)) ctx.fatal(`Unknown archive format '${format}'`);
  const levels = o.list.filter(([k]) => /^\d$/.test(k)).map(([k]) => Number(k));
  const level = levels.length ? levels[levels.length - 1] : 6;
  const [rev, ...paths] = o.operands;
  let oid: string | null = null;
  try {
    oid = await resolveRev(ctx, store, rev);
  } catch (e) {
    if (!(e instanceof AmbiguousOid)) throw e;
  }
  if (!oid) ctx.fatal(`not a valid object name: ${rev}`);
  const commit = await store.peelToCommit(oid);
  let tree = oid;
  for (let i = 0; i < 32; i++) {
    const t = await store.read(tree);
    if (t?.type === 'tree') break;
    if (t?.type === 'commit') tree = (await store.commit(tree)).tree;
    else if (t?.type === 'tag') tree = (await store.tag(tree)).object;
    else ctx.fatal(`not a tree object: ${oid}`);
  }
  // a commit's time, else now
  const mtime = commit ? (await store.commit(commit)).committer.time : Math.floor(Date.now() / 1000);
  const prefix = o.get('prefix') ?? '';
  const ps = paths.length && ctx.repo().dir ? pathspec(ctx, paths) : null;
  const entries: Entry[] = [];
  if (prefix.endsWith('/')) entries.push({ path: prefix, mode: 0o040000, oid: tree, data: null });
  const walk = async (t: string, dir: string): Promise<void> => {
    for (const e of await store.treeLevel(t)) {
      const p = dir === '' ? e.name : `${dir}/${e.name}`;
      if (e.mode === 0o040000) {
        // a directory is written only when something in it is (or it is named)
        const at = entries.length;
        const whole = !ps || ps.match(p);
        if (whole || ps!.items.some((i) => i.path.startsWith(`${p}/`) || i.glob)) {
          entries.push({ path: `${prefix}${p}/`, mode: e.mode, oid: e.oid, data: null });
          await walk(e.oid, p);
          if (!whole && entries.length === at + 1) entries.pop();
        }
        continue;
      }
      if (ps && !ps.match(p)) continue;
      entries.push({ path: `${prefix}${p}`, mode: e.mode, oid: e.oid, data: e.mode === 0o160000 ? null : await store.blob(e.oid) });
    }
  };
  await walk(tree, '');
  if (ps) {
    const bad = ps.unmatched();
    if (bad.length) ctx.fatal(`pathspec '${bad[0].raw}' did not match any files`);
  }
  if (o.has('verbose')) ctx.err(entries.map((e) => `${e.path}\n`).join(''));
  let parts = format === 'zip' ? zipArchive(entries, mtime, commit, level) : tarArchive(entries, mtime, commit);
  if (format === 'tgz' || format === 'tar.gz') {
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let off = 0;
    for (const p of parts) {
      all.set(p, off);
      off += p.length;
    }
    parts = [gzipSync(all, { level: (levels.length ? level : 6) as 6, mtime: 0 })];
  }
  if (output) {
    const fd = ctx.sys.open(ctx.abs(output), O_WRONLY | O_CREAT | O_TRUNC, 0o666);
    try {
      for (const p of parts) ctx.sys.writeAll(fd, p);
    } finally {
      ctx.sys.close(fd);
    }
  } else for (const p of parts) ctx.out.write(p);
  return 0;
}
