// strings [option(s)] [file(s)]: print the runs of printable characters in
// files (GNU binutils 2.40 is the specification; like it, the whole file is
// scanned, as with -a). Streams: a run is only held until it is long enough.

import { strerror } from '../../../abi/errno.js';
import { O_RDONLY } from '../../../abi/fcntl.js';
import { isDir } from '../../../abi/stat.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { chunks, command, errnoOf, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: strings [option(s)] [file(s)]
 Display printable strings in [file(s)] (stdin by default)
 The options are:
  -a - --all                Scan the entire file, not just the data section [default]
  -d --data                 Only scan the data sections in the file
  -f --print-file-name      Print the name of the file before each string
  -n <number>               Locate & print any sequence of at least <number>
    --bytes=<number>         displayable characters.  (The default is 4).
  -t --radix={o,d,x}        Print the location of the string in base 8, 10 or 16
  -w --include-all-whitespace Include all whitespace as valid string characters
  -o                        An alias for --radix=o
  -e --encoding={s,S,b,l,B,L} Select character size and endianness:
                            s = 7-bit, S = 8-bit, {b,l} = 16-bit, {B,L} = 32-bit
  -s --output-separator=<string> String used to separate strings in output.
  -h --help                 Display this information
  -v -V --version           Print the program's version number
`;

export default function main(os: AgentosApi): void {
  // GNU strings takes -NUM for -n NUM.
  const args = os.argv.slice(1).flatMap((a) => (/^-\d+$/.test(a) ? ['-n', a.slice(1)] : [a]));
  os.exit(strings(os, args));
}

interface Opts {
  min: number;
  radix: 'o' | 'd' | 'x' | null;
  fileName: boolean;
  allWhite: boolean;
  encoding: string;
  sep: string;
}

const strings = command(
  {
    name: 'strings',
    usage: USAGE,
    short: 'adfhn:ot:e:ws:T:vV',
    long: {
      all: ['a', 'none'], data: ['d', 'none'], 'print-file-name': ['f', 'none'], bytes: ['n', 'required'],
      radix: ['t', 'required'], encoding: ['e', 'required'], 'include-all-whitespace': ['w', 'none'],
      'output-separator': ['s', 'required'], target: ['T', 'required'], help: ['h', 'none'], version: ['v', 'none'],
    },
  },
  (c) => {
    if (c.has('h')) {
      c.out.write(USAGE);
      return 0;
    }
    if (c.has('v') || c.has('V')) {
      c.out.write('GNU strings (agentOS binutils) 2.40\n');
      return 0;
    }
    const o: Opts = { min: 4, radix: null, fileName: c.has('f'), allWhite: c.has('w'), encoding: 's', sep: '\n' };
    for (const [k, v] of c.all) {
      if (k === 'n') {
        if (!/^\d+$/.test(v as string)) c.fail(`invalid integer argument ${v}`);
        o.min = Number(v);
        if (o.min < 1) c.fail(`invalid minimum string length ${v}`);
      } else if (k === 'o') o.radix = 'o';
      else if (k === 't') {
        if (v !== 'o' && v !== 'd' && v !== 'x') return c.usage(`invalid radix ${v}`);
        o.radix = v;
      } else if (k === 'e') {
        if (!v || v.length !== 1 || !'sSbBlL'.includes(v)) return c.usage(`invalid encoding ${v}`);
        o.encoding = v;
      } else if (k === 's') o.sep = v as string;
    }
    const names = c.operands.length ? c.operands : ['-'];
    for (const name of names) scan(c, o, name);
    return c.status;
  },
);

function scan(c: Cmd, o: Opts, name: string): void {
  let fd = 0;
  if (name !== '-') {
    try {
      fd = c.sys.open(name, O_RDONLY);
      if (isDir(c.sys.fstat(fd).mode)) {
        c.sys.close(fd);
        c.error(`Warning: '${name}' is a directory`);
        return;
      }
    } catch (e) {
      c.error(`'${name}': ${errnoOf(e) === 2 ? 'No such file' : strerror(errnoOf(e))}`);
      return;
    }
  }
  const label = name === '-' ? '{standard input}' : name;
  const unit = 'bl'.includes(o.encoding) ? 2 : 'BL'.includes(o.encoding) ? 4 : 1;
  const big = o.encoding === 'b' || o.encoding === 'B';
  const enc = new TextEncoder();
  const out = c.out;
  // The run being collected: its start offset and its bytes (printed once it reaches the minimum).
  let start = 0;
  let run: number[] = [];
  let printing = false;
  let offset = 0;
  const partial: number[] = [];
  const graphic = (ch: number): boolean => ch <= 255 && (ch === 9 || (ch >= 32 && ch < 127) || (o.encoding === 'S' && ch > 127) || (o.allWhite && ch >= 9 && ch <= 13));
  const end = () => {
    if (printing) out.write(enc.encode(o.sep));
    printing = false;
    run = [];
  };
  const prefix = (at: number): string => {
    let s = o.fileName ? `${label}: ` : '';
    if (o.radix) s += `${at.toString(o.radix === 'o' ? 8 : o.radix === 'd' ? 10 : 16).padStart(7)} `;
    return s;
  };
  try {
    const take = (ch: number, at: number) => {
      if (printing) out.write(Uint8Array.of(ch));
      else {
        if (run.length === 0) start = at;
        run.push(ch);
        if (run.length >= o.min) {
          out.write(enc.encode(prefix(start)));
          out.write(Uint8Array.from(run));
          printing = true;
        }
      }
    };
    for (const chunk of chunks(c.sys, fd)) {
      for (const b of chunk) {
        if (unit === 1) {
          if (graphic(b)) take(b, offset);
          else end();
          offset++;
          continue;
        }
        // Wider characters: a non-printable one moves the scan on by one byte only (GNU's unget_part_char).
        partial.push(b);
        while (partial.length >= unit) {
          let ch = 0;
          for (let k = 0; k < unit; k++) ch = ch * 256 + partial[big ? k : unit - 1 - k];
          if (graphic(ch)) {
            take(ch, offset);
            partial.splice(0, unit);
            offset += unit;
          } else {
            end();
            partial.shift();
            offset++;
          }
        }
      }
    }
  } catch (e) {
    c.error(`${label}: ${strerror(errnoOf(e))}`);
  }
  end();
  if (fd !== 0) c.sys.close(fd);
}
