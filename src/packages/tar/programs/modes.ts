// The operations: -t and -x read members and pick them by name and exclusion;
// -c writes the operands; -r and -u find the end of an existing archive and
// add there (-u only what is newer than the archived copy).

import { O_CREAT, O_RDWR, SEEK_SET } from '../../../abi/fcntl.js';
import { userName } from '../../../userland/lib/users.js';
import { checkChild, openForRead, openForWrite } from './archive.js';
import type { Tar } from './context.js';
import { Archiver } from './create.js';
import { Extractor } from './extract.js';
import { BLOCK, LNK, REG, AREG, CONT, checksumOk, type Header } from './header.js';
import { verboseLine } from './list.js';
import { excluded, hasWildcards, NameList, saferName, stripComponents, type Wanted } from './names.js';
import { TarUsage, type Arg } from './options.js';
import { quoteColon } from './quote.js';
import { TarReader } from './reader.js';
import { BlockReader, FdSink, FdSource } from './stream.js';
import { TarWriter } from './writer.js';

const utf8 = new TextDecoder();

/** Names from a -T file (or stdin): one per line, or NUL-separated with --null. */
function readList(t: Tar, file: string): string[] {
  let data: Uint8Array;
  try {
    data = file === '-' ? t.sys.readAll(0) : t.sys.readFile(file);
  } catch (e) {
    t.sysError(file, 'Cannot open', e);
    t.fatal(null);
  }
  const text = utf8.decode(data);
  return text.split(t.opts.nullNames ? '\0' : '\n').filter((n) => n !== '');
}

/** The command line with -T lists expanded into names and -X files into patterns, in place. */
function expandLists(t: Tar): Arg[] {
  const out: Arg[] = [];
  for (const a of t.opts.args) {
    if ('list' in a) for (const name of readList(t, a.list)) out.push({ name });
    else out.push(a);
  }
  return out;
}

/** -t/-x: every exclusion applies, wherever it was given. */
function loadExcludes(t: Tar): void {
  for (const a of t.opts.args) {
    if ('exclude' in a) t.opts.excludes.push(a.exclude);
    else if ('excludeFrom' in a) t.opts.excludes.push(...readList(t, a.excludeFrom));
  }
}

/**
 * The member names asked for, each with the directory the -C options before
 * it lead to (GNU: `tar -xf a.tar x -C out` extracts x here), and, for when
 * no names are given, the directory all of them lead to.
 */
function memberArgs(t: Tar): { names: Wanted[]; all: Wanted } {
  const names: Wanted[] = [];
  const start = t.sys.getcwd();
  for (const a of expandLists(t)) {
    if ('name' in a) names.push({ name: a.name, dir: t.sys.getcwd() });
    else if ('dir' in a) {
      try {
        t.sys.chdir(a.dir);
      } catch (e) {
        t.sysError(a.dir, 'Cannot open', e);
        t.fatal(null);
      }
    }
  }
  const all = { name: '', dir: t.sys.getcwd() };
  t.sys.chdir(start);
  return { names, all };
}

/** Read the archive, calling `each` for the members selected, in the directory their name was given for. */
function readMembers(t: Tar, each: (h: Header, r: TarReader) => void): void {
  const o = t.opts;
  loadExcludes(t);
  const a = openForRead(t);
  const wanted = memberArgs(t);
  const names = new NameList(wanted.names, o.wildcards === true);
  const r = new TarReader(t, a.br);
  let cwd = t.sys.getcwd();
  for (let h = r.next(); h; h = r.next()) {
    const hit = names.match(h.name, wanted.all);
    if (!hit || excluded(o.excludes, h.name, o.wildcards !== false)) continue;
    if (hit.dir !== cwd) {
      t.sys.chdir(hit.dir);
      cwd = hit.dir;
    }
    each(h, r);
  }
  checkChild(t, a);
  const record = o.blocking * BLOCK;
  t.totals('read', Math.ceil(a.br.offset / record) * record);
  const missing = names.unfound();
  if (missing.some(hasWildcards) && o.wildcards === null) {
    t.say('Pattern matching characters used in file names');
    t.say('Use --wildcards to enable pattern matching, or --no-wildcards to suppress this warning');
  }
  for (const n of missing) t.error(`${quoteColon(n)}: Not found in archive`);
}

export function list(t: Tar): void {
  readMembers(t, (h) => {
    saferName(t, h.name, false);
    verboseLine(t, h, h.name, t.opts.verbose > 0);
  });
}

export function extract(t: Tar): void {
  const o = t.opts;
  if (o.toStdout) t.useStderrForListing();
  const ex = new Extractor(t);
  readMembers(t, (h, r) => {
    const stripped = stripComponents(h.name, o.strip);
    if (stripped === null) return;
    const path = saferName(t, stripped, false);
    if (o.verbose) verboseLine(t, h, h.name, o.verbose > 1);
    if (o.toStdout) {
      if (h.type === REG || h.type === AREG || h.type === CONT) r.data((c) => t.out.write(c));
      return;
    }
    let target: string | null = null;
    if (h.type === LNK) target = saferName(t, stripComponents(h.linkname, o.strip) ?? h.linkname, true);
    ex.extract(h, r, path, target);
  });
  ex.finish();
}

/** Names to archive (with -X files read), or GNU's refusal to make an empty archive. */
function createArgs(t: Tar): Arg[] {
  const args: Arg[] = [];
  for (const a of expandLists(t)) {
    args.push('excludeFrom' in a ? { excludeFrom: a.excludeFrom, patterns: readList(t, a.excludeFrom) } : a);
  }
  if (!args.some((a) => 'name' in a)) throw new TarUsage('Cowardly refusing to create an empty archive', 2);
  return args;
}

export function create(t: Tar): void {
  const o = t.opts;
  const args = createArgs(t);
  const a = openForWrite(t);
  const w = new TarWriter(a.sink, o.format, o.blocking, userName(t.sys, 0) ?? '');
  new Archiver(t, w, a.id, args).run(args);
  t.totals('written', w.finish());
  if (a.fd !== 1) t.sys.close(a.fd);
}

/** -r and -u: add at the end-of-archive marker of an existing (uncompressed) archive file. */
export function append(t: Tar, update: boolean): void {
  const o = t.opts;
  if (o.archive === '-') throw new TarUsage("Options '-Aru' are incompatible with '-f -'", 2);
  if (o.compress) throw new TarUsage('Cannot update compressed archives', 2);
  const args = createArgs(t);
  let fd: number;
  try {
    fd = t.sys.open(o.archive, O_RDWR | O_CREAT, 0o666);
  } catch (e) {
    t.sysError(o.archive, 'Cannot open', e);
    t.fatal(null);
  }
  const first = t.sys.pread(fd, BLOCK, 0);
  if (!(first.byteLength === BLOCK && checksumOk(first)) && first[0] === 0x1f && first[1] === 0x8b) {
    t.fatal('Cannot update compressed archives');
  }
  const r = new TarReader(t, new BlockReader(new FdSource(t.sys, fd)));
  const archived = new Map<string, number>();
  for (let h = r.next(); h; h = r.next()) {
    const prev = archived.get(h.name);
    if (prev === undefined || h.mtime > prev) archived.set(h.name, h.mtime);
  }
  t.sys.lseek(fd, r.endOffset, SEEK_SET);
  const w = new TarWriter(new FdSink(t.sys, fd), o.format, o.blocking, userName(t.sys, 0) ?? '', r.endOffset / BLOCK);
  const newer = (member: string, st: { mtimeMs: number }): boolean => {
    const have = archived.get(member);
    return have === undefined || Math.floor(st.mtimeMs / 1000) > have;
  };
  const st = t.sys.fstat(fd);
  new Archiver(t, w, `${st.dev}:${st.ino}`, args, update ? newer : undefined).run(args);
  t.totals('written', w.finish());
  t.sys.close(fd);
}
