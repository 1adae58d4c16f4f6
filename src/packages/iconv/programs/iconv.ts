// iconv [OPTION...] [FILE...]: convert text from one character set to
// another (glibc's iconv program is the specification: its names, //TRANSLIT
// and //IGNORE, -c, and its "illegal input sequence at position N" errors).
// Streams: input is converted chunk by chunk.

import { strerror } from '../../../abi/errno.js';
import { O_CREAT, O_RDONLY, O_TRUNC, O_WRONLY } from '../../../abi/fcntl.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { chunks, errnoOf, parseArgs, UsageError, Writer, WriteError } from '../../../userland/lib/index.js';
import { CHARSETS, findCharset, ILLEGAL, INCOMPLETE, MARK, type Decoder, type Encoder } from './charsets.js';
import { translit } from './translit.js';

const USAGE = `Usage: iconv [OPTION...] [FILE...]
Convert encoding of given files from one encoding to another.

 Input/Output format specification:
  -f, --from-code=NAME       encoding of original text
  -t, --to-code=NAME         encoding for output

 Information:
  -l, --list                 list all known coded character sets

 Output control:
  -c                         omit invalid characters from output
  -o, --output=FILE          output file
  -s, --silent               suppress warnings
      --verbose              print progress information

  -?, --help                 Give this help list
      --usage                Give a short usage message
  -V, --version              Print program version

Mandatory or optional arguments to long options are also mandatory or optional
for any corresponding short options.
`;

/** Ends the program with a status. */
class Quit {
  constructor(readonly status: number) {}
}

export default function main(os: AgentosApi): void {
  const out = new Writer(os.sys, 1);
  let status: number;
  try {
    status = run(os, out);
    out.flush();
  } catch (e) {
    if (e instanceof Quit) {
      try {
        out.flush();
      } catch {
        // Output is gone; the status tells.
      }
      status = e.status;
    } else if (e instanceof WriteError) {
      os.sys.writeAll(2, `iconv: unable to write output: ${strerror(e.errno)}\n`);
      status = 1;
    } else throw e;
  }
  os.exit(status);
}

/** A charset argument: the set and its //TRANSLIT, //IGNORE suffixes. */
function parseCode(arg: string): { name: string; translit: boolean; ignore: boolean } {
  const i = arg.indexOf('/');
  const name = i < 0 ? arg : arg.slice(0, i);
  const flags = i < 0 ? [] : arg.slice(i).toUpperCase().split(/[/,]+/);
  return { name, translit: flags.includes('TRANSLIT'), ignore: flags.includes('IGNORE') };
}

function localeCharset(os: AgentosApi): string {
  const loc = os.env.LC_ALL || os.env.LC_CTYPE || os.env.LANG || 'C';
  return /utf-?8/i.test(loc) ? 'UTF-8' : 'ANSI_X3.4-1968';
}

function run(os: AgentosApi, stdout: Writer): number {
  const sys = os.sys;
  const fail = (msg: string, status = 1): never => {
    stdout.flush();
    sys.writeAll(2, `iconv: ${msg}\n`);
    throw new Quit(status);
  };
  let parsed;
  try {
    parsed = parseArgs(os.argv.slice(1), {
      short: 'f:t:lco:sV?',
      long: {
        'from-code': ['f', 'required'], 'to-code': ['t', 'required'], list: ['l', 'none'], output: ['o', 'required'],
        silent: ['s', 'none'], verbose: ['verbose', 'none'], help: ['?', 'none'], usage: ['usage', 'none'], version: ['V', 'none'],
      },
    });
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    sys.writeAll(2, `iconv: ${e.message}\nTry \`iconv --help' or \`iconv --usage' for more information.\n`);
    return 64;
  }
  const opts = new Map(parsed.list);
  if (opts.has('?')) {
    stdout.write(USAGE);
    return 0;
  }
  if (opts.has('usage')) {
    stdout.write('Usage: iconv [-cls?V] [-f NAME] [-t NAME] [-o FILE] [--from-code=NAME]\n            [--to-code=NAME] [--list] [--output=FILE] [--silent] [--verbose]\n            [--help] [--usage] [--version] [FILE...]\n');
    return 0;
  }
  if (opts.has('V')) {
    stdout.write('iconv (agentOS) 2.36\n');
    return 0;
  }
  if (opts.has('l')) {
    const names = CHARSETS.flatMap((c) => [c.name, ...c.aliases]).sort();
    stdout.write(names.map((n) => `${n}${n.includes('/') ? '' : '//'}\n`).join(''));
    return 0;
  }
  const from = parseCode(opts.get('f') ?? localeCharset(os));
  const to = parseCode(opts.get('t') ?? localeCharset(os));
  const src = findCharset(from.name);
  const dst = findCharset(to.name);
  // glibc's iconv reports errno here: ENOENT in a UTF-8 locale (from loading it), 0 in C.
  if (!src || !dst) return fail(`failed to start conversion processing${localeCharset(os) === 'UTF-8' ? ': No such file or directory' : ''}`);
  const omit = opts.has('c');
  const conv = new Converter(dst.encoder(), to.translit, omit || to.ignore, localeCharset(os) === 'UTF-8');
  let out = stdout;
  const outName = opts.get('o');
  if (outName !== undefined) {
    try {
      out = new Writer(sys, sys.open(outName, O_WRONLY | O_CREAT | O_TRUNC, 0o666));
    } catch (e) {
      return fail(`cannot open output file \`${outName}': ${strerror(errnoOf(e))}`);
    }
  }
  let status = 0;
  const files = parsed.operands.length ? parsed.operands : ['-'];
  for (const name of files) {
    let fd = 0;
    if (name !== '-') {
      try {
        fd = sys.open(name, O_RDONLY);
      } catch (e) {
        stdout.flush();
        sys.writeAll(2, `iconv: cannot open input file \`${name}': ${strerror(errnoOf(e))}\n`);
        status = 1;
        continue;
      }
    }
    const r = conv.file(src.decoder(), chunks(sys, fd), out);
    if (fd !== 0) sys.close(fd);
    if (r.error === null && r.skipped && to.ignore && !omit) r.error = `illegal input sequence at position ${r.size}`;
    if (r.error !== null) {
      out.flush();
      stdout.flush();
      sys.writeAll(2, `iconv: ${r.error}\n`);
      status = 1;
      break;
    }
  }
  out.flush();
  return status;
}

interface Result {
  error: string | null;
  skipped: boolean;
  size: number;
}

class Converter {
  private started = false;

  constructor(
    private readonly enc: Encoder,
    private readonly translit: boolean,
    private readonly skip: boolean,
    /** A UTF-8 locale: transliteration also drops accents. */
    private readonly combining: boolean,
  ) {}

  /** Convert one input; stops at the first error it may not skip. */
  file(dec: Decoder, input: Generator<Uint8Array>, out: Writer): Result {
    let carry: Uint8Array = new Uint8Array(0);
    let pos = 0;
    let skipped = false;
    const bytes: number[] = [];
    const flush = () => {
      if (bytes.length) out.write(Uint8Array.from(bytes));
      bytes.length = 0;
    };
    const finish = (error: string | null): Result => {
      flush();
      return { error, skipped, size: pos + carry.length };
    };
    for (;;) {
      const r = input.next();
      const last = r.done === true;
      const buf = r.done ? carry : carry.length ? concat(carry, r.value) : r.value;
      let at = 0;
      while (at < buf.length) {
        const [cp, n] = dec.decode(buf, at, buf.length);
        if (cp === INCOMPLETE) {
          if (!last) break;
          pos += at;
          carry = buf.subarray(at);
          return finish('incomplete character or shift sequence at end of buffer');
        }
        if (cp === ILLEGAL || (cp !== MARK && !this.emit(cp, bytes))) {
          if (!this.skip) {
            pos += at;
            carry = new Uint8Array(0);
            return finish(`illegal input sequence at position ${pos}`);
          }
          skipped = true;
        }
        at += n;
      }
      pos += at;
      carry = buf.slice(at);
      flush();
      if (last) break;
    }
    return finish(null);
  }

  /** Encode one character (with its //TRANSLIT fallback); false when it cannot be written. */
  private emit(cp: number, out: number[]): boolean {
    const mark = out.length;
    if (!this.started && this.enc.bom) out.push(...this.enc.bom);
    if (this.enc.encode(cp, out)) {
      this.started = true;
      return true;
    }
    if (this.translit) {
      const alt = translit(cp, this.combining) ?? '?';
      const tmp: number[] = [];
      if ([...alt].every((ch) => this.enc.encode(ch.codePointAt(0) as number, tmp)) || (tmp.length = 0, this.enc.encode(63, tmp))) {
        out.push(...tmp);
        this.started = true;
        return true;
      }
    }
    out.length = mark;
    return false;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const c = new Uint8Array(a.length + b.length);
  c.set(a);
  c.set(b, a.length);
  return c;
}
