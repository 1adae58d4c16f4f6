// unzip [-Z] [-opts[modifiers]] file[.zip] [list] [-x xlist] [-d exdir]
// List (-l, -v), test (-t), pipe (-p) or extract zip archive members
// (Info-ZIP UnZip 6.00 is the reference: its messages, listing formats and
// exit statuses — 0, 1 warnings, 2 errors in the archive, 9 no archive,
// 10 bad options, 11 no matching member).

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { O_RDONLY } from '../../../abi/fcntl.js';
import { Writer } from '../../../userland/lib/writer.js';
import { extractAll, pipeEntries } from './extract.js';
import type { Entry } from './format.js';
import { readDirectory } from './io.js';
import { cautionUnmatched, listEntries, testEntries } from './list.js';
import { globMatch } from './match.js';

const USAGE = `UnZip 6.00 of 20 April 2009 (agentOS), compatible with Info-ZIP UnZip.

Usage: unzip [-Z] [-opts[modifiers]] file[.zip] [list] [-x xlist] [-d exdir]
  Default action is to extract files in list, except those in xlist, to exdir;
  file[.zip] may be a wildcard.  -Z => ZipInfo mode ("unzip -Z" for usage).

  -p  extract files to pipe, no messages     -l  list files (short format)
  -t  test compressed archive data           -v  list verbosely/show version info
  -x  exclude files that follow (in xlist)   -d  extract files into exdir
modifiers:
  -n  never overwrite existing files         -q  quiet mode (-qq => quieter)
  -o  overwrite files WITHOUT prompting      -j  junk paths (do not make directories)
  -C  match filenames case-insensitively     -K  keep setuid/setgid/tacky permissions
See "unzip -hh" or unzip.txt for more help.  Examples:
  unzip data1 -x joe   => extract all files except joe from zipfile data1.zip
  unzip -p foo | more  => send contents of foo.zip via pipe into program more
  unzip -fo foo ReadMe => quietly replace existing ReadMe if archive file newer
`;

export interface UnzipOptions {
  /** `names`: ZipInfo's -1/-2 (member names only, one per line). */
  mode: 'extract' | 'list' | 'verbose' | 'test' | 'pipe' | 'names';
  quiet: number;
  overwrite: 'ask' | 'always' | 'never';
  junk: boolean;
  exdir: string | null;
  foldCase: boolean;
  keepSpecial: boolean;
}

/** What one run shares: options, stdout, and the worst status so far. */
export interface Unzip {
  os: AgentosApi;
  o: UnzipOptions;
  out: Writer;
  status: number;
  zipName: string;
  fd: number;
}

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

function run(os: AgentosApi): number {
  const sys = os.sys;
  const out = new Writer(sys, 1);
  const o: UnzipOptions = { mode: 'extract', quiet: 0, overwrite: 'ask', junk: false, exdir: null, foldCase: false, keepSpecial: false };
  const operands: string[] = [];
  const excludes: string[] = [];
  let inExcludes = false;
  let args = os.argv.slice(1);
  // ZipInfo mode: only its names-only listings (-1, -2) are here; say so for the rest.
  if (args[0]?.startsWith('-Z')) {
    const zopts = [args[0].slice(2), ...args.slice(1).filter((a) => a.startsWith('-')).map((a) => a.slice(1))].join('');
    if (!/^[12]+$/.test(zopts)) {
      os.eprint(`unzip: ZipInfo mode: only -1 and -2 (member names) are supported by this unzip, not '-Z${zopts}'\n`);
      return 10;
    }
    o.mode = 'names';
    args = args.slice(1).filter((a) => !a.startsWith('-'));
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('-') || a === '-') {
      (inExcludes ? excludes : operands).push(a);
      continue;
    }
    inExcludes = false;
    for (let j = 1; j < a.length; j++) {
      const c = a[j];
      if (c === 'l') o.mode = 'list';
      else if (c === 'v') o.mode = 'verbose';
      else if (c === 't') o.mode = 'test';
      else if (c === 'p' || c === 'c') o.mode = 'pipe';
      else if (c === 'q') o.quiet++;
      else if (c === 'o') o.overwrite = 'always';
      else if (c === 'n') o.overwrite = 'never';
      else if (c === 'j') o.junk = true;
      else if (c === 'C') o.foldCase = true;
      else if (c === 'K') o.keepSpecial = true;
      else if (c === 'x') inExcludes = true;
      else if (c === 'd') {
        const rest = a.slice(j + 1);
        o.exdir = rest || args[++i] || null;
        if (o.exdir === null) return usage(os, 10);
        break;
      } else if (c === 'h') return usage(os, 0);
      else if (c === 'a' || c === 'X' || c === 'U' || c === 'L' || c === 'V' || c === 'M' || c === 'u' || c === 'f') {
        // Accepted, no effect here (text conversion, owners, case, paging, freshen).
      } else return usage(os, 10);
    }
  }
  if (operands.length === 0) {
    if (o.mode === 'verbose') {
      out.write('UnZip 6.00 of 20 April 2009 (agentOS), compatible with Info-ZIP UnZip.\n');
      out.flush();
      return 0;
    }
    return usage(os, 0);
  }
  const [given, ...patterns] = operands;
  const found = openArchive(os, given);
  if (typeof found === 'number') return found;
  const u: Unzip = { os, o, out, status: 0, zipName: found.name, fd: found.fd };
  const all = found.entries;
  const fold = o.foldCase;
  const matched = new Set<string>();
  const selected = all.filter((e) => {
    if (excludes.some((x) => globMatch(x, e.name, fold))) return false;
    if (patterns.length === 0) return true;
    const hit = patterns.filter((p) => globMatch(p, e.name, fold));
    for (const p of hit) matched.add(p);
    return hit.length > 0;
  });
  const unmatched = patterns.filter((p) => !matched.has(p));
  if (o.mode !== 'pipe' && o.mode !== 'names' && o.quiet === 0) out.write(`Archive:  ${u.zipName}\n`);
  if (o.mode === 'names') for (const e of selected) out.write(`${e.name}\n`);
  else if (o.mode === 'list' || o.mode === 'verbose') listEntries(u, selected);
  else if (o.mode === 'test') testEntries(u, selected, unmatched);
  else if (o.mode === 'pipe') pipeEntries(u, selected);
  else extractAll(u, selected);
  if (unmatched.length) {
    if (o.mode === 'extract' || o.mode === 'pipe' || o.mode === 'names') cautionUnmatched(u, unmatched);
    // ZipInfo fails only when no pattern matched.
    if (u.status === 0 && !(o.mode === 'names' && selected.length > 0)) u.status = 11;
  }
  out.flush();
  return u.status;
}

function usage(os: AgentosApi, status: number): number {
  if (status === 0) os.print(USAGE);
  else os.eprint(USAGE);
  return status;
}

/** Open NAME, NAME.zip or NAME.ZIP and read its central directory; a number is the exit status after the message. */
function openArchive(os: AgentosApi, given: string): { name: string; fd: number; entries: Entry[] } | number {
  const sys = os.sys;
  for (const name of [given, `${given}.zip`, `${given}.ZIP`]) {
    let fd: number;
    try {
      fd = sys.open(name, O_RDONLY);
    } catch {
      continue;
    }
    const st = sys.fstat(fd);
    if ((st.mode & 0o170000) === 0o040000) {
      sys.close(fd);
      continue;
    }
    const dir = readDirectory(sys, fd, st.size);
    if (dir === 'no-end' || dir === 'bad') {
      os.print(`Archive:  ${name}\n`);
      if (dir === 'no-end') {
        os.eprint(
          '  End-of-central-directory signature not found.  Either this file is not\n' +
            '  a zipfile, or it constitutes one disk of a multi-part archive.  In the\n' +
            '  latter case the central directory and zipfile comment will be found on\n' +
            '  the last disk(s) of this archive.\n' +
            `unzip:  cannot find zipfile directory in one of ${given} or\n` +
            `        ${given}.zip, and cannot find ${given}.ZIP, period.\n`,
        );
        return 9;
      }
      os.eprint(`error [${name}]:  missing central directory\n`);
      return 2;
    }
    return { name, fd, entries: dir.entries };
  }
  os.eprint(`unzip:  cannot find or open ${given}, ${given}.zip or ${given}.ZIP.\n`);
  return 9;
}
