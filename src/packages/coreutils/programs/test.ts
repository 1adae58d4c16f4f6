// test EXPRESSION, [ EXPRESSION ]: GNU test, the program (find -exec test ...,
// xargs test, env [ ...). POSIX's rules by argument count (up to four), then
// GNU's recursive parser; status 0 true, 1 false, 2 on a syntax error.

import { Errno, SysError } from '../../../abi/errno.js';
import { R_OK, W_OK, X_OK } from '../../../abi/fcntl.js';
import type { Stat } from '../../../abi/stat.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { quote, VERSION } from '../../../userland/lib/index.js';

const USAGE = `Usage: test EXPRESSION
  or:  test
  or:  [ EXPRESSION ]
  or:  [ ]
  or:  [ OPTION
Exit with the status determined by EXPRESSION.

      --help        display this help and exit
      --version     output version information and exit

An omitted EXPRESSION defaults to false.  Otherwise,
EXPRESSION is true or false and sets exit status.  It is one of:

  ( EXPRESSION )               EXPRESSION is true
  ! EXPRESSION                 EXPRESSION is false
  EXPRESSION1 -a EXPRESSION2   both EXPRESSION1 and EXPRESSION2 are true
  EXPRESSION1 -o EXPRESSION2   either EXPRESSION1 or EXPRESSION2 is true

  -n STRING            the length of STRING is nonzero
  STRING               equivalent to -n STRING
  -z STRING            the length of STRING is zero
  STRING1 = STRING2    the strings are equal
  STRING1 != STRING2   the strings are not equal

  INTEGER1 -eq INTEGER2   INTEGER1 is equal to INTEGER2
  INTEGER1 -ge INTEGER2   INTEGER1 is greater than or equal to INTEGER2
  INTEGER1 -gt INTEGER2   INTEGER1 is greater than INTEGER2
  INTEGER1 -le INTEGER2   INTEGER1 is less than or equal to INTEGER2
  INTEGER1 -lt INTEGER2   INTEGER1 is less than INTEGER2
  INTEGER1 -ne INTEGER2   INTEGER1 is not equal to INTEGER2

  FILE1 -ef FILE2   FILE1 and FILE2 have the same device and inode numbers
  FILE1 -nt FILE2   FILE1 is newer (modification date) than FILE2
  FILE1 -ot FILE2   FILE1 is older than FILE2

  -b FILE     FILE exists and is block special
  -c FILE     FILE exists and is character special
  -d FILE     FILE exists and is a directory
  -e FILE     FILE exists
  -f FILE     FILE exists and is a regular file
  -g FILE     FILE exists and is set-group-ID
  -G FILE     FILE exists and is owned by the effective group ID
  -h FILE     FILE exists and is a symbolic link (same as -L)
  -k FILE     FILE exists and has its sticky bit set
  -L FILE     FILE exists and is a symbolic link (same as -h)
  -N FILE     FILE exists and has been modified since it was last read
  -O FILE     FILE exists and is owned by the effective user ID
  -p FILE     FILE exists and is a named pipe
  -r FILE     FILE exists and the user has read access
  -s FILE     FILE exists and has a size greater than zero
  -S FILE     FILE exists and is a socket
  -t FD       file descriptor FD is opened on a terminal
  -u FILE     FILE exists and its set-user-ID bit is set
  -w FILE     FILE exists and the user has write access
  -x FILE     FILE exists and the user has execute (or search) access

Except for -h and -L, all FILE-related tests dereference symbolic links.
Beware that parentheses need to be escaped (e.g., by backslashes) for shells.
INTEGER may also be -l STRING, which evaluates to the length of STRING.

NOTE: Binary -a and -o are inherently ambiguous.  Use 'test EXPR1 && test
EXPR2' or 'test EXPR1 || test EXPR2' instead.

NOTE: [ honors the --help and --version options, but test does not.
test treats each of those as it treats any other nonempty STRING.
`;

/** A syntax error: status 2 after `name: message`. */
class SyntaxError2 {
  constructor(readonly message: string) {}
}

const BINOPS = new Set(['=', '!=', '==', '-nt', '-ot', '-ef', '-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const UNOPS = new Set('bcdefghknprstuwxzGLOSN'.split('').map((c) => `-${c}`));
const IS = { reg: 0o100000, dir: 0o040000, blk: 0o060000, chr: 0o020000, fifo: 0o010000, sock: 0o140000, lnk: 0o120000 };

class Test {
  pos = 0;

  /** `argc` leaves out the `]` of `[`, which stays in `argv` (GNU's messages can name it). */
  constructor(private readonly os: AgentosApi, private readonly argv: string[], private readonly argc: number) {}

  private fail(message: string): never {
    throw new SyntaxError2(message);
  }

  private beyond(): never {
    this.fail(`missing argument after ${quote(this.argv[this.argc - 1])}`);
  }

  private advance(mustHaveMore: boolean): void {
    this.pos++;
    if (mustHaveMore && this.pos >= this.argc) this.beyond();
  }

  /** POSIX's meaning by argument count (1 to 4), else the full grammar. */
  posix(nargs: number): boolean {
    const a = this.argv;
    const p = this.pos;
    if (nargs === 1) return this.one();
    if (nargs === 2) return this.two();
    if (nargs === 3) return this.three();
    if (nargs === 4) {
      if (a[p] === '!') {
        this.advance(true);
        return !this.three();
      }
      if (a[p] === '(' && a[p + 3] === ')') {
        this.advance(false);
        const v = this.two();
        this.advance(false);
        return v;
      }
    }
    return this.expr();
  }

  private one(): boolean {
    return this.argv[this.pos++] !== '';
  }

  private two(): boolean {
    const t = this.argv[this.pos];
    if (t === '!') {
      this.advance(false);
      return !this.one();
    }
    if (t.length === 2 && t[0] === '-') {
      if (UNOPS.has(t)) return this.unary();
      this.fail(`${quote(t)}: unary operator expected`);
    }
    this.beyond();
  }

  private three(): boolean {
    const a = this.argv;
    const p = this.pos;
    if (BINOPS.has(a[p + 1])) return this.binary(false);
    if (a[p] === '!') {
      this.advance(true);
      return !this.two();
    }
    if (a[p] === '(' && a[p + 2] === ')') {
      this.advance(false);
      const v = this.one();
      this.advance(false);
      return v;
    }
    if (a[p + 1] === '-a' || a[p + 1] === '-o') return this.expr();
    this.fail(`${quote(a[p + 1])}: binary operator expected`);
  }

  private expr(): boolean {
    if (this.pos >= this.argc) this.beyond();
    return this.or();
  }

  // GNU evaluates both sides of -a and -o (no short circuit).
  private or(): boolean {
    let v = this.and();
    while (this.pos < this.argc && this.argv[this.pos] === '-o') {
      this.advance(false);
      v = this.and() || v;
    }
    return v;
  }

  private and(): boolean {
    let v = this.term();
    while (this.pos < this.argc && this.argv[this.pos] === '-a') {
      this.advance(false);
      v = this.term() && v;
    }
    return v;
  }

  private term(): boolean {
    const a = this.argv;
    let negated = false;
    while (this.pos < this.argc && a[this.pos] === '!') {
      this.advance(true);
      negated = !negated;
    }
    if (this.pos >= this.argc) this.beyond();
    let v: boolean;
    const t = a[this.pos];
    if (t === '(') {
      this.advance(true);
      let nargs = 1;
      for (; this.pos + nargs < this.argc && a[this.pos + nargs] !== ')'; nargs++) {
        if (nargs === 4) {
          nargs = this.argc - this.pos;
          break;
        }
      }
      v = this.posix(nargs);
      if (a[this.pos] === undefined) this.fail(`${quote(')')} expected`);
      if (a[this.pos] !== ')') this.fail(`${quote(')')} expected, found ${quote(a[this.pos])}`);
      this.advance(false);
    } else if (this.argc - this.pos >= 4 && t === '-l' && BINOPS.has(a[this.pos + 2])) {
      v = this.binary(true);
    } else if (this.argc - this.pos >= 3 && BINOPS.has(a[this.pos + 1])) {
      v = this.binary(false);
    } else if (t.length === 2 && t[0] === '-') {
      if (!UNOPS.has(t)) this.fail(`${quote(t)}: unary operator expected`);
      v = this.unary();
    } else {
      v = t !== '';
      this.advance(false);
    }
    return negated !== v;
  }

  private binary(leftIsLength: boolean): boolean {
    const a = this.argv;
    if (leftIsLength) this.advance(false);
    const op = this.pos + 1;
    let rightIsLength = false;
    if (op < this.argc - 2 && a[op + 1] === '-l') {
      rightIsLength = true;
      this.advance(false);
    }
    const o = a[op];
    const left = a[op - 1];
    const right = a[rightIsLength ? op + 2 : op + 1];
    this.pos += 3;
    if (['-eq', '-ne', '-lt', '-le', '-gt', '-ge'].includes(o)) {
      const l = leftIsLength ? BigInt(left.length) : this.integer(left);
      const r = rightIsLength ? BigInt(right.length) : this.integer(right);
      return { '-eq': l === r, '-ne': l !== r, '-lt': l < r, '-le': l <= r, '-gt': l > r, '-ge': l >= r }[o]!;
    }
    if (o === '-nt' || o === '-ot' || o === '-ef') {
      if (leftIsLength || rightIsLength) this.fail(`${o} does not accept -l`);
      const l = this.stat(left);
      const r = this.stat(right);
      if (o === '-ef') return !!l && !!r && l.dev === r.dev && l.ino === r.ino;
      const [newer, older] = o === '-nt' ? [l, r] : [r, l];
      return !!newer && (!older || newer.mtimeMs > older.mtimeMs);
    }
    return o === '!=' ? left !== right : left === right;
  }

  /** GNU's find_int: blanks, an optional sign, digits, blanks. */
  private integer(s: string): bigint {
    const m = /^[ \t]*([+-]?)(\d+)[ \t]*$/.exec(s);
    if (!m) this.fail(`invalid integer ${quote(s)}`);
    return BigInt(m[1] === '-' ? `-${m[2]}` : m[2]);
  }

  private stat(path: string, follow = true): Stat | null {
    try {
      return follow ? this.os.sys.stat(path) : this.os.sys.lstat(path);
    } catch (e) {
      if (e instanceof SysError) return null;
      throw e;
    }
  }

  private access(path: string, mode: number): boolean {
    try {
      this.os.sys.access(path, mode);
      return true;
    } catch (e) {
      if (e instanceof SysError) return false;
      throw e;
    }
  }

  private unary(): boolean {
    const op = this.argv[this.pos];
    this.advance(true);
    const arg = this.argv[this.pos++];
    const type = (t: number, follow = true) => ((this.stat(arg, follow)?.mode ?? 0) & 0o170000) === t;
    const bit = (b: number) => ((this.stat(arg)?.mode ?? 0) & b) !== 0;
    switch (op) {
      case '-e': return this.stat(arg) !== null;
      case '-f': return type(IS.reg);
      case '-d': return type(IS.dir);
      case '-b': return type(IS.blk);
      case '-c': return type(IS.chr);
      case '-p': return type(IS.fifo);
      case '-S': return type(IS.sock);
      case '-h':
      case '-L': return type(IS.lnk, false);
      case '-s': return (this.stat(arg)?.size ?? 0) > 0;
      case '-u': return bit(0o4000);
      case '-g': return bit(0o2000);
      case '-k': return bit(0o1000);
      case '-r': return this.access(arg, R_OK);
      case '-w': return this.access(arg, W_OK);
      case '-x': return this.access(arg, X_OK);
      case '-O': return this.stat(arg)?.uid === this.os.sys.geteuid();
      case '-G': return this.stat(arg)?.gid === this.os.sys.getegid();
      case '-N': {
        const st = this.stat(arg);
        return !!st && st.mtimeMs > st.atimeMs;
      }
      case '-t': {
        const fd = this.integer(arg);
        try {
          return fd >= 0n && fd <= 0x7fffffffn && this.os.sys.isatty(Number(fd));
        } catch (e) {
          if (e instanceof SysError && e.errno !== Errno.EFAULT) return false;
          throw e;
        }
      }
      case '-n': return arg !== '';
      default: return arg === ''; // -z
    }
  }
}

function run(os: AgentosApi, name: 'test' | '[', args: string[]): number {
  let argc = args.length;
  if (name === '[') {
    if (argc === 1 && args[0] === '--help') return (os.print(USAGE), 0);
    if (argc === 1 && args[0] === '--version') return (os.print(`[ (${VERSION})\n`), 0);
    if (args[argc - 1] !== ']') {
      os.eprint(`[: missing ${quote(']')}\n`);
      return 2;
    }
    argc--;
  }
  if (argc === 0) return 1;
  const t = new Test(os, args, argc);
  try {
    const v = t.posix(argc);
    if (t.pos !== argc) throw new SyntaxError2(`extra argument ${quote(args[t.pos])}`);
    return v ? 0 : 1;
  } catch (e) {
    if (!(e instanceof SyntaxError2)) throw e;
    os.eprint(`${name}: ${e.message}\n`);
    return 2;
  }
}

export const test = (os: AgentosApi, args: string[]): number => run(os, 'test', args);
export const bracket = (os: AgentosApi, args: string[]): number => run(os, '[', args);
