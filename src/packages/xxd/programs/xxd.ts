// xxd [options] [infile [outfile]]   xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]
// Make a hex dump or turn one back into binary. xxd 2022-01-14 (vim 9.0) is
// the specification, including its own option syntax (-c8, -cols 8, -ps,
// --long forms matched by their first letter). Streams in both directions.

import { Errno, strerror } from '../../../abi/errno.js';
import { O_CREAT, O_RDONLY, O_TRUNC, O_WRONLY, SEEK_CUR, SEEK_END, SEEK_SET } from '../../../abi/fcntl.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { chunks, errnoOf, Writer, WriteError } from '../../../userland/lib/index.js';

const VERSION = 'xxd 2022-01-14 by Juergen Weigert et al.';

const USAGE = (name: string) => `Usage:
       ${name} [options] [infile [outfile]]
    or
       ${name} -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]
Options:
    -a          toggle autoskip: A single '*' replaces nul-lines. Default off.
    -b          binary digit dump (incompatible with -ps,-i,-r). Default hex.
    -C          capitalize variable names in C include file style (-i).
    -c cols     format <cols> octets per line. Default 16 (-i: 12, -ps: 30).
    -E          show characters in EBCDIC. Default ASCII.
    -e          little-endian dump (incompatible with -ps,-i,-r).
    -g bytes    number of octets per group in normal output. Default 2 (-e: 4).
    -h          print this summary.
    -i          output in C include file style.
    -l len      stop after <len> octets.
    -n name     set the variable name used in C include output (-i).
    -o off      add <off> to the displayed file position.
    -ps         output in postscript plain hexdump style.
    -r          reverse operation: convert (or patch) hexdump into binary.
    -r -s off   revert with <off> added to file positions found in hexdump.
    -d          show offset in decimal instead of hex.
    -s [+][-]seek  start at <seek> bytes abs. (or +: rel.) infile offset.
    -u          use upper case hex letters.
    -v          show version: "${VERSION}".
`;

type HexType = 'normal' | 'ps' | 'include' | 'bits' | 'le';
const COLS = 256;

/** Ends the program with a status (output flushed by main). */
class Quit {
  constructor(readonly status: number) {}
}

interface Opts {
  autoskip: boolean;
  type: HexType;
  upper: boolean;
  capitalize: boolean;
  decimal: boolean;
  revert: boolean;
  ebcdic: boolean;
  cols: number;
  colsGiven: boolean;
  group: number;
  displayOff: number;
  seek: number;
  relSeek: boolean;
  negSeek: boolean;
  seekGiven: boolean;
  length: number;
  varname: string | null;
}

/** strtol(s, NULL, 0): leading digits in base 10, 0x.. hex or 0.. octal; 0 when none. */
function strtol(s: string): number {
  const m = /^\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)/.exec(s);
  if (!m) return 0;
  const body = m[2];
  const v = /^0[xX]/.test(body) ? parseInt(body.slice(2), 16) : body.length > 1 && body[0] === '0' ? parseInt(body, 8) : parseInt(body, 10);
  return m[1] === '-' ? -v : v;
}

export default function main(os: AgentosApi): void {
  const name = (os.argv[0] ?? 'xxd').replace(/.*\//, '');
  const out = new Writer(os.sys, 1);
  let status: number;
  try {
    status = run(os, name, out);
    out.flush();
  } catch (e) {
    if (e instanceof Quit) {
      try {
        out.flush();
      } catch {
        // stdout is gone: the status still says it.
      }
      status = e.status;
    } else if (e instanceof WriteError) status = 3;
    else throw e;
  }
  os.exit(status);
}

function run(os: AgentosApi, name: string, stdout: Writer): number {
  const sys = os.sys;
  const die = (status: number, msg: string): never => {
    stdout.flush();
    sys.writeAll(2, `${name}: ${msg}\n`);
    throw new Quit(status);
  };
  const usage = (): never => {
    stdout.flush();
    sys.writeAll(2, USAGE(name));
    throw new Quit(1);
  };
  const o: Opts = {
    autoskip: false, type: 'normal', upper: false, capitalize: false, decimal: false, revert: false, ebcdic: false,
    cols: 0, colsGiven: false, group: -1, displayOff: 0, seek: 0, relSeek: true, negSeek: false, seekGiven: false, length: -1, varname: null,
  };
  const args = os.argv.slice(1);
  // Options are matched by their first two characters, with -xVALUE, -x VALUE and -long VALUE forms.
  const value = (pp: string, long: string): string => {
    if (pp.length > 2 && pp.slice(2, 2 + long.length) !== long) return pp.slice(2);
    if (args.length < 2) usage();
    return args.splice(1, 1)[0];
  };
  while (args.length) {
    const a = args[0];
    const pp = a.startsWith('--') && a.length > 2 ? a.slice(1) : a;
    const k = pp.slice(0, 2);
    if (k === '-a') o.autoskip = !o.autoskip;
    else if (k === '-b') o.type = 'bits';
    else if (k === '-e') o.type = 'le';
    else if (k === '-u') o.upper = true;
    else if (k === '-p') o.type = 'ps';
    else if (k === '-i') o.type = 'include';
    else if (k === '-C') o.capitalize = true;
    else if (k === '-d') o.decimal = true;
    else if (k === '-r') o.revert = true;
    else if (k === '-E') o.ebcdic = true;
    else if (k === '-h') usage();
    else if (k === '-v') {
      sys.writeAll(2, `${VERSION}\n`);
      return 0;
    } else if (k === '-c') {
      if (pp.length > 2 && pp.slice(2, 11) === 'apitalize') o.capitalize = true;
      else {
        o.colsGiven = true;
        o.cols = strtol(value(pp, 'ols'));
      }
    } else if (k === '-g') o.group = strtol(value(pp, 'roup'));
    else if (k === '-o') o.displayOff = strtol(value(pp, 'ffset'));
    else if (k === '-s') {
      o.relSeek = false;
      o.negSeek = false;
      o.seekGiven = true;
      let v = pp.length > 2 && pp.slice(2, 5) !== 'kip' && pp.slice(2, 5) !== 'eek' ? pp.slice(2) : (args.length < 2 ? usage() : args.splice(1, 1)[0]);
      if (v[0] === '+') {
        o.relSeek = true;
        v = v.slice(1);
      }
      if (v[0] === '-') {
        o.negSeek = true;
        v = v.slice(1);
      }
      o.seek = strtol(v);
    } else if (k === '-l') o.length = strtol(value(pp, 'en'));
    else if (k === '-n') o.varname = value(pp, 'ame');
    else if (pp === '--') {
      args.shift();
      break;
    } else if (pp[0] === '-' && pp.length > 1) usage();
    else break;
    args.shift();
  }
  if (!o.colsGiven || (!o.cols && o.type !== 'ps')) o.cols = { ps: 30, include: 12, bits: 6, normal: 16, le: 16 }[o.type];
  if (o.group < 0) o.group = { bits: 1, normal: 2, le: 4, ps: 0, include: 0 }[o.type];
  if ((o.type === 'ps' && o.cols < 0) || (o.type !== 'ps' && o.cols < 1) || ((o.type === 'normal' || o.type === 'bits' || o.type === 'le') && o.cols > COLS)) {
    die(1, `invalid number of columns (max. ${COLS}).`);
  }
  if (o.group < 1 || o.group > o.cols) o.group = o.cols;
  else if (o.type === 'le' && o.group & (o.group - 1)) die(1, 'number of octets per group must be a power of 2 with -e.');
  if (args.length > 2) usage();
  let inFd = 0;
  const infile = args.length >= 1 && args[0] !== '-' ? args[0] : null;
  if (infile !== null) {
    try {
      inFd = sys.open(infile, O_RDONLY);
    } catch (e) {
      die(2, `${infile}: ${strerror(errnoOf(e))}`);
    }
  }
  let out = stdout;
  let outFd = 1;
  if (args.length >= 2 && args[1] !== '-') {
    try {
      outFd = sys.open(args[1], O_WRONLY | O_CREAT | (o.revert ? 0 : O_TRUNC), 0o666);
    } catch (e) {
      die(3, `${args[1]}: ${strerror(errnoOf(e))}`);
    }
    out = new Writer(sys, outFd);
  }
  const input = new ByteSource(os, inFd);
  let status: number;
  if (o.revert) {
    if (o.type !== 'normal' && o.type !== 'ps') die(255, 'Sorry, cannot revert this type of hexdump');
    status = revert(os, input, out, outFd, o, die);
  } else {
    const seekoff = skip(os, input, o, die);
    status = dump(input, out, o, seekoff, infile);
  }
  out.flush();
  return status;
}

/** Input read in chunks, one byte at a time for the formatter. */
class ByteSource {
  private it: Generator<Uint8Array>;
  private buf: Uint8Array = new Uint8Array(0);
  private pos = 0;

  constructor(
    os: AgentosApi,
    readonly fd: number,
  ) {
    this.it = chunks(os.sys, fd);
  }

  /** The next byte, or -1 at EOF. */
  get(): number {
    if (this.pos >= this.buf.length) {
      const r = this.it.next();
      if (r.done) return -1;
      this.buf = r.value;
      this.pos = 0;
    }
    return this.buf[this.pos++];
  }
}

/** -s: seek (or read past) to the start offset; returns the offset shown for the first byte. */
function skip(os: AgentosApi, input: ByteSource, o: Opts, die: (s: number, m: string) => never): number {
  if (!(o.seek || o.negSeek || !o.relSeek)) return 0;
  const off = o.negSeek ? -o.seek : o.seek;
  try {
    return os.sys.lseek(input.fd, off, o.relSeek ? SEEK_CUR : o.negSeek ? SEEK_END : SEEK_SET);
  } catch (e) {
    if (o.negSeek || errnoOf(e) !== Errno.ESPIPE) die(4, 'Sorry, cannot seek.');
  }
  for (let s = o.seek; s > 0; s--) if (input.get() < 0) die(4, 'Sorry, cannot seek.');
  return o.seek;
}

const enc = new TextEncoder();

function dump(input: ByteSource, out: Writer, o: Opts, seekoff: number, infile: string | null): number {
  const hex = o.upper ? '0123456789ABCDEF' : '0123456789abcdef';
  const put = (s: string) => out.write(enc.encode(s));
  if (o.type === 'include') {
    const name = o.varname ?? infile;
    const cname = (n: string) => (/^[0-9]/.test(n) ? '__' : '') + n.replace(/[^A-Za-z0-9]/g, '_').replace(/[a-z]/g, (c) => (o.capitalize ? c.toUpperCase() : c));
    if (name !== null) put(`unsigned char ${cname(name)}[] = {\n`);
    let p = 0;
    let line = '';
    while (o.length < 0 || p < o.length) {
      const c = input.get();
      if (c < 0) break;
      line += `${p % o.cols ? ', ' : !p ? '  ' : ',\n  '}${o.upper ? '0X' : '0x'}${hex[c >> 4]}${hex[c & 15]}`;
      p++;
      if (line.length > 4096) {
        put(line);
        line = '';
      }
    }
    put(line);
    if (p) put('\n');
    if (name !== null) put(`};\nunsigned int ${cname(name)}_${o.capitalize ? 'LEN' : 'len'} = ${p};\n`);
    return 0;
  }
  if (o.type === 'ps') {
    let p = o.cols;
    let n = 0;
    let line = '';
    while (o.length < 0 || n < o.length) {
      const e = input.get();
      if (e < 0) break;
      line += hex[e >> 4] + hex[e & 15];
      n++;
      if (o.cols > 0 && !--p) {
        line += '\n';
        p = o.cols;
      }
      if (line.length > 4096) {
        put(line);
        line = '';
      }
    }
    if (o.cols === 0 || p < o.cols) line += '\n';
    put(line);
    return 0;
  }
  const grplen = o.type === 'bits' ? 8 * o.group + 1 : 2 * o.group + 1;
  const l: string[] = [];
  let p = 0;
  let n = 0;
  let c = 0;
  let addrlen = 9;
  let nonzero = 0;
  const skipper = new ZeroLines(put);
  while (o.length < 0 || n < o.length) {
    let e = input.get();
    if (e < 0) break;
    if (p === 0) {
      const addr = n + seekoff + o.displayOff;
      const a = `${o.decimal ? String(addr).padStart(8, '0') : addr.toString(16).padStart(8, '0')}:`;
      addrlen = a.length;
      l.length = 0;
      for (let k = 0; k < a.length; k++) l[k] = a[k];
    }
    const x = o.type === 'le' ? p ^ (o.group - 1) : p;
    c = addrlen + 1 + Math.floor((grplen * x) / o.group);
    if (o.type === 'bits') for (let i = 7; i >= 0; i--) l[c++] = e & (1 << i) ? '1' : '0';
    else {
      l[c] = hex[e >> 4];
      l[++c] = hex[e & 15];
    }
    if (e) nonzero++;
    if (o.ebcdic) e = e < 64 ? 46 : ETOA64[e - 64];
    c = addrlen + 3 + Math.floor((grplen * o.cols - 1) / o.group) + p;
    l[c++] = e > 31 && e < 127 ? String.fromCharCode(e) : '.';
    n++;
    if (++p === o.cols) {
      skipper.line(`${line(l, c)}\n`, o.autoskip ? nonzero : 1);
      nonzero = 0;
      p = 0;
    }
  }
  if (p) skipper.line(`${line(l, c)}\n`, 1);
  else if (o.autoskip) skipper.line(`${line(l, c)}\n`, -1);
  return 0;
}

/** The line buffer up to `end`, unwritten positions as spaces. */
function line(l: string[], end: number): string {
  let s = '';
  for (let k = 0; k < end; k++) s += l[k] ?? ' ';
  return s;
}

/** -a: three or more lines of zeros in a row become one '*' (xxd's xxdline). */
class ZeroLines {
  private z = '';
  private seen = 0;

  constructor(private readonly put: (s: string) => void) {}

  line(l: string, nz: number): void {
    if (!nz && this.seen === 1) this.z = l;
    if (nz || !this.seen++) {
      if (nz) {
        if (nz < 0) this.seen--;
        if (this.seen === 2) this.put(this.z);
        if (this.seen > 2) this.put('*\n');
      }
      if (nz >= 0 || this.seen > 0) this.put(l);
      if (nz) this.seen = 0;
    }
  }
}

const hexDigit = (c: number): number => (c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1);

/** -r: hex dump back to bytes (xxd's huntype): addresses honoured, the text column skipped. */
function revert(os: AgentosApi, input: ByteSource, out: Writer, outFd: number, o: Opts, die: (s: number, m: string) => never): number {
  const ps = o.type === 'ps';
  const base = o.negSeek ? -o.seek : o.seek;
  let ignGarb = true;
  let n1 = -1;
  let n2 = 0;
  let n3 = 0;
  let p = o.cols;
  let haveOff = 0;
  let wantOff = 0;
  const bytes: number[] = [];
  const flush = () => {
    if (bytes.length) out.write(Uint8Array.from(bytes));
    bytes.length = 0;
  };
  for (let c = input.get(); c >= 0; c = input.get()) {
    if (c === 13) continue;
    if (ps && (c === 32 || c === 10 || c === 9)) continue;
    n3 = n2;
    n2 = n1;
    n1 = hexDigit(c);
    if (n1 === -1 && ignGarb) continue;
    ignGarb = false;
    if (!ps && p >= o.cols) {
      if (n1 < 0) {
        p = 0;
        continue;
      }
      wantOff = wantOff * 16 + n1;
      continue;
    }
    if (base + wantOff !== haveOff) {
      flush();
      out.flush();
      try {
        os.sys.lseek(outFd, base + wantOff - haveOff, SEEK_CUR);
        haveOff = base + wantOff;
      } catch {
        // Not seekable: fill forward with zeros below.
      }
      if (base + wantOff < haveOff) die(5, 'Sorry, cannot seek backwards.');
      for (; haveOff < base + wantOff; haveOff++) bytes.push(0);
    }
    if (n2 >= 0 && n1 >= 0) {
      bytes.push((n2 << 4) | n1);
      if (bytes.length >= 65536) flush();
      haveOff++;
      wantOff++;
      n1 = -1;
      if (!ps && ++p >= o.cols) c = skipToEol(input, c);
    } else if (n1 < 0 && n2 < 0 && n3 < 0) c = skipToEol(input, c);
    if (c === 10) {
      if (!ps) wantOff = 0;
      p = o.cols;
      ignGarb = true;
    }
  }
  flush();
  return 0;
}

function skipToEol(input: ByteSource, c0: number): number {
  let c = c0;
  while (c !== 10 && c !== -1) c = input.get();
  return c;
}

/** EBCDIC to ASCII for bytes 64..255 (-E), the table xxd uses. */
const ETOA64 = [
  0o040, 0o240, 0o241, 0o242, 0o243, 0o244, 0o245, 0o246, 0o247, 0o250, 0o325, 0o056, 0o074, 0o050, 0o053, 0o174,
  0o046, 0o251, 0o252, 0o253, 0o254, 0o255, 0o256, 0o257, 0o260, 0o261, 0o041, 0o044, 0o052, 0o051, 0o073, 0o176,
  0o055, 0o057, 0o262, 0o263, 0o264, 0o265, 0o266, 0o267, 0o270, 0o271, 0o313, 0o054, 0o045, 0o137, 0o076, 0o077,
  0o272, 0o273, 0o274, 0o275, 0o276, 0o277, 0o300, 0o301, 0o302, 0o140, 0o072, 0o043, 0o100, 0o047, 0o075, 0o042,
  0o303, 0o141, 0o142, 0o143, 0o144, 0o145, 0o146, 0o147, 0o150, 0o151, 0o304, 0o305, 0o306, 0o307, 0o310, 0o311,
  0o312, 0o152, 0o153, 0o154, 0o155, 0o156, 0o157, 0o160, 0o161, 0o162, 0o136, 0o314, 0o315, 0o316, 0o317, 0o320,
  0o321, 0o345, 0o163, 0o164, 0o165, 0o166, 0o167, 0o170, 0o171, 0o172, 0o322, 0o323, 0o324, 0o133, 0o326, 0o327,
  0o330, 0o331, 0o332, 0o333, 0o334, 0o335, 0o336, 0o337, 0o340, 0o341, 0o342, 0o343, 0o344, 0o135, 0o346, 0o347,
  0o173, 0o101, 0o102, 0o103, 0o104, 0o105, 0o106, 0o107, 0o110, 0o111, 0o350, 0o351, 0o352, 0o353, 0o354, 0o355,
  0o175, 0o112, 0o113, 0o114, 0o115, 0o116, 0o117, 0o120, 0o121, 0o122, 0o356, 0o357, 0o360, 0o361, 0o362, 0o363,
  0o134, 0o237, 0o123, 0o124, 0o125, 0o126, 0o127, 0o130, 0o131, 0o132, 0o364, 0o365, 0o366, 0o367, 0o370, 0o371,
  0o060, 0o061, 0o062, 0o063, 0o064, 0o065, 0o066, 0o067, 0o070, 0o071, 0o372, 0o373, 0o374, 0o375, 0o376, 0o377,
];
