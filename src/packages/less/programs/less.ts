// less [OPTION]... [FILE]...   more [OPTION]... [FILE]...
// A pager: on a terminal, a window on the text with less's movement keys
// (space/b, j/k, d/u, g/G, /pattern ?pattern n/N, q); otherwise the text is
// copied through unchanged, as the real ones do (more with its ":::" file
// headers). Multicall: the applet is basename(argv[0]).

import { Errno, SysError, strerror } from '../../../abi/errno.js';
import { isDir } from '../../../abi/stat.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { chunks, Writer, WriteError } from '../../../userland/lib/index.js';
import { isUtf8Locale } from '../../../userland/lib/locale.js';
import { seqLenIn } from '../../../userland/lib/utf8.js';
import { ask, page, termSize } from './terminal.js';

const LESS_HELP = `Usage: less [OPTION]... [FILE]...
View FILEs (or standard input) a screen at a time.

  -F, --quit-if-one-screen   quit if the text fits on one screen
  -N, --LINE-NUMBERS         (accepted; line numbers are not shown)
  -S, --chop-long-lines      (accepted; long lines wrap)
  -R, -r, -X, -i, -I, -M, -m, -E, -e, -K, -s, -q, -Q  accepted
      --help                 display this help and exit
      --version              output version information and exit

Keys: SPACE f ^F next window; b ^B previous; RETURN j e next line;
k y previous line; d u half window; g < first line; G > last line
(a count before them: that line); /PATTERN ?PATTERN search; n N repeat;
q quit. When standard output is not a terminal the text is copied.
`;

const MORE_HELP = `
Usage:
 more [options] <file>...

A file perusal filter for CRT viewing.

Options:
 -d, --silent          display help instead of ringing bell
 -f, --logical         count logical rather than screen lines
 -l, --no-pause        suppress pause after form feed
 -c, --print-over      do not scroll, display text and clean line ends
 -p, --clean-print     do not scroll, clean screen and display text
 -s, --squeeze         squeeze multiple blank lines into one
 -u, --plain           suppress underlining and bold
 -n, --lines <number>  the number of lines per screenful
 -<number>             same as --lines
 +<number>             display file beginning from line number
 +/<pattern>           display file beginning from pattern match

     --help            display this help
 -V, --version         display version
`;

const LESS_FLAGS = 'FNSRrXiIMmEeKsqQ~acdfgGJLuUVwWz';
const LESS_WITH_VALUE = 'bhjkoOpPtTxyz#';

export default function main(os: AgentosApi): void {
  const name = os.argv[0].slice(os.argv[0].lastIndexOf('/') + 1);
  const out = new Writer(os.sys, 1);
  let status: number;
  try {
    status = name === 'more' ? more(os, out) : less(os, out);
    out.flush();
  } catch (e) {
    if (!(e instanceof WriteError)) throw e;
    status = 1;
  }
  os.exit(status);
}

function isTty(os: AgentosApi, fd: number): boolean {
  try {
    return os.sys.isatty(fd);
  } catch {
    return false;
  }
}

const dec = new TextDecoder();

/** Read a whole input for the interactive pager. */
function readText(os: AgentosApi, fd: number): string {
  return dec.decode(os.sys.readAll(fd));
}

function less(os: AgentosApi, out: Writer): number {
  const files: string[] = [];
  let quitIfOne = false;
  let noInit = false; // -X: no ti/te strings, so no alternate screen
  const args = os.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--help') {
      out.write(LESS_HELP);
      return 0;
    }
    if (a === '--version' || a === '-V') {
      out.write('less (agentOS) 0.1.0\n');
      return 0;
    }
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      if (a === '--quit-if-one-screen') quitIfOne = true;
      else if (a === '--no-init') noInit = true;
      continue;
    }
    if (a.startsWith('+')) continue;
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j];
        if (LESS_WITH_VALUE.includes(c)) {
          if (j === a.length - 1) i++;
          break;
        }
        if (c === 'F') quitIfOne = true;
        else if (c === 'X') noInit = true;
        else if (!LESS_FLAGS.includes(c)) {
          out.flush();
          os.sys.writeAll(2, `There is no -${c} option ("less --help" for help)\n`);
        }
      }
      continue;
    }
    files.push(a);
  }
  if (isTty(os, 1)) {
    const sources = files.length ? files : ['-'];
    let refused = 0;
    for (const f of sources) {
      if (f !== '-' && looksBinary(os, f)) {
        const answer = ask(os, `"${f}" may be a binary file.  See it anyway? `);
        if (answer !== 'y' && answer !== 'Y') {
          refused++;
          continue;
        }
      }
      const text = input(os, f, (msg) => os.sys.writeAll(2, `${msg}\n`));
      if (text === null) continue;
      const lines = text.replace(/\n$/, '').split('\n');
      if (quitIfOne && lines.length < termSize(os, 1)[0]) {
        out.write(text);
        continue;
      }
      out.flush();
      if (!page(os, lines, f === '-' ? '' : f, false, !noInit)) out.write(text);
    }
    return refused === sources.length ? 1 : 0;
  }
  // less without a terminal reports unreadable files on standard output, in line with the text.
  for (const f of files.length ? files : ['-']) copy(os, out, f, (msg) => out.write(`${msg}\n`));
  return 0;
}

function more(os: AgentosApi, out: Writer): number {
  const files: string[] = [];
  const args = os.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--help') {
      out.write(MORE_HELP);
      return 0;
    }
    if (a === '--version' || a === '-V') {
      out.write('more (agentOS) 0.1.0\n');
      return 0;
    }
    if (a === '-n' || a === '--lines') {
      i++;
      continue;
    }
    if (/^--(silent|logical|no-pause|print-over|clean-print|squeeze|plain|lines=.*)$/.test(a) || a.startsWith('+')) continue;
    if (a.startsWith('-') && a.length > 1) {
      const bad = /^-[0-9]+$/.test(a) ? null : [...a.slice(1)].find((c) => !'dflcpsu'.includes(c));
      if (bad) {
        out.flush();
        os.sys.writeAll(2, `more: invalid option -- '${bad}'\nTry 'more --help' for more information.\n`);
        return 1;
      }
      continue;
    }
    files.push(a);
  }
  const err = (msg: string) => warn(os, out, `more: ${msg}`);
  if (files.length === 0) {
    if (isTty(os, 0)) {
      err('bad usage');
      os.sys.writeAll(2, "Try 'more --help' for more information.\n");
      return 1;
    }
    if (isTty(os, 1)) {
      if (!page(os, readText(os, 0).replace(/\n$/, '').split('\n'), '', true)) copy(os, out, '-', err);
    } else copy(os, out, '-', err);
    return 0;
  }
  // util-linux more shows what is piped to it before the files.
  if (!isTty(os, 0) && !isTty(os, 1)) copy(os, out, '-', err);
  for (const f of files) {
    let st;
    try {
      st = os.sys.stat(f);
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      err(`cannot open ${f}: ${strerror(e.errno)}`);
      continue;
    }
    if (isDir(st.mode)) {
      out.write(`\n*** ${f}: directory ***\n\n`);
      continue;
    }
    if (isTty(os, 1)) {
      const text = input(os, f, err);
      if (text !== null && !page(os, text.replace(/\n$/, '').split('\n'), f, true)) out.write(text);
      continue;
    }
    out.write(`::::::::::::::\n${f}\n::::::::::::::\n`);
    copy(os, out, f, err, true);
  }
  return 0;
}

function warn(os: AgentosApi, out: Writer, msg: string): void {
  out.flush();
  os.sys.writeAll(2, `${msg}\n`);
}

/** Copy a file (or "-", standard input) to the output; failures as less words them. */
function copy(os: AgentosApi, out: Writer, f: string, err: (msg: string) => void, dashIsFile = false): void {
  let fd = 0;
  if (f !== '-' || dashIsFile) {
    try {
      if (isDir(os.sys.stat(f).mode)) {
        err(`${f} is a directory`);
        return;
      }
      fd = os.sys.open(f);
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      err(dashIsFile ? `cannot open ${f}: ${strerror(e.errno)}` : `${f}: ${strerror(e.errno)}`);
      return;
    }
  }
  try {
    for (const b of chunks(os.sys, fd)) out.write(b);
  } catch (e) {
    if (!(e instanceof SysError) || e.errno === Errno.EPIPE) throw e;
    err(`${f}: ${strerror(e.errno)}`);
  } finally {
    if (fd !== 0) os.sys.close(fd);
  }
}

/**
 * less's test before paging a file: more than five binary characters in its
 * first 256 bytes. Binary: control characters other than backspace, tab,
 * newline, form feed and return, DEL, and then bytes past ASCII (C locale) or
 * C1 controls and invalid sequences (UTF-8).
 */
function looksBinary(os: AgentosApi, f: string): boolean {
  let head: Uint8Array;
  try {
    const fd = os.sys.open(f);
    try {
      head = os.sys.read(fd, 256);
    } finally {
      os.sys.close(fd);
    }
  } catch {
    return false; // reported when it is read
  }
  const utf8 = isUtf8Locale(os.env);
  let count = 0;
  for (let i = 0; i < head.length; ) {
    const b = head[i];
    const n = utf8 && b >= 0x80 ? seqLenIn(head, i) : 1;
    if (n === 0) {
      count++;
      i++;
      while (i < head.length && (head[i] & 0xc0) === 0x80) i++;
      continue;
    }
    const c = n === 1 ? b : n === 2 ? ((b & 0x1f) << 6) | (head[i + 1] & 0x3f) : 0x800;
    if ((c < 0x20 && !CONTROL_OK.has(c)) || c === 0x7f || (c >= 0x80 && (!utf8 || c < 0xa0))) count++;
    i += n;
  }
  return count > 5;
}

/** Control characters less shows rather than counting them binary: \b \t \n \f \r. */
const CONTROL_OK = new Set([8, 9, 10, 12, 13]);

/** A whole input for the interactive pager, or null (reported) if it cannot be read. */
function input(os: AgentosApi, f: string, err: (msg: string) => void): string | null {
  if (f === '-') return readText(os, 0);
  try {
    if (isDir(os.sys.stat(f).mode)) {
      err(`${f} is a directory`);
      return null;
    }
    return dec.decode(os.sys.readFile(f));
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    err(`${f}: ${strerror(e.errno)}`);
    return null;
  }
}
