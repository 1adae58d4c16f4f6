// sqlite3 [OPTIONS] [FILENAME [SQL...]]: the SQLite command-line shell on
// real SQLite (sql.js). SQL comes from the arguments or from standard input;
// dot-commands as in sqlite3 3.40. The database file lives in the VFS and is
// written back (atomically) after each batch that changed it.

import { Errno, SysError } from '../../../abi/errno.js';
import { SIG_DFL, SIG_IGN, SIGPIPE } from '../../../abi/signal.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { tryStat, WriteError } from '../../../userland/lib/index.js';
import { isBrokenPipe } from '../../../userland/lib/writer.js';
import { metaCommand, fileLines } from './dot.js';
import { Engine, jsString, utf8 } from './engine.js';
import { Shell, ShellExit } from './shell.js';

const USAGE = `Usage: sqlite3 [OPTIONS] FILENAME [SQL]
FILENAME is the name of an SQLite database. A new database is created
if the file does not previously exist.
OPTIONS include:
   -ascii               set output mode to 'ascii'
   -bail                stop after hitting an error
   -batch               force batch I/O
   -box                 set output mode to 'box'
   -column              set output mode to 'column'
   -cmd COMMAND         run "COMMAND" before reading stdin
   -csv                 set output mode to 'csv'
   -echo                print inputs before execution
   -init FILENAME       read/process named file
   -[no]header          turn headers on or off
   -help                show this message
   -html                set output mode to HTML
   -interactive         force interactive I/O
   -json                set output mode to 'json'
   -line                set output mode to 'line'
   -list                set output mode to 'list'
   -markdown            set output mode to 'markdown'
   -newline SEP         set output row separator. Default: '\\n'
   -nullvalue TEXT      set text string for NULL values. Default ''
   -quote               set output mode to 'quote'
   -readonly            open the database read-only
   -separator SEP       set output column separator. Default: '|'
   -table               set output mode to 'table'
   -tabs                set output mode to 'tabs'
   -version             show SQLite version
`;

/** Options that take a value (sqlite3 also accepts them with two dashes). */
const WITH_ARG = new Set(['-separator', '-newline', '-nullvalue', '-cmd', '-init', '-vfs', '-mmap', '-maxsize', '-nonce', '-heap']);
const WITH_TWO_ARGS = new Set(['-lookaside', '-pagecache']);
const FLAGS = new Set([
  '-ascii', '-bail', '-batch', '-box', '-column', '-csv', '-echo', '-header', '-noheader', '-help', '-html', '-interactive',
  '-json', '-line', '-list', '-markdown', '-quote', '-readonly', '-table', '-tabs', '-version', '-nofollow', '-stats',
  '-memtrace', '-safe', '-deserialize', '-unsafe-testing',
]);

/** Where the wasm is: share/sqlite3/ of the package this program belongs to. */
function wasmPath(os: AgentosApi): string {
  try {
    const self = os.sys.realpath(os.argv[0]);
    const root = self.slice(0, self.lastIndexOf('/libexec/'));
    if (root && tryStat(os.sys, `${root}/share/sqlite3/sql-wasm.wasm`)) return `${root}/share/sqlite3/sql-wasm.wasm`;
  } catch {
    // invoked by a bare name: the installed package
  }
  return '/opt/agentos/sqlite3/current/share/sqlite3/sql-wasm.wasm';
}

export default async function main(os: AgentosApi): Promise<void> {
  const argv = os.argv.slice(1).map(utf8);
  const err = (s: string) => os.sys.writeAll(2, s);
  // Pass 1: the database name, the SQL arguments, unknown options.
  let dbName: string | null = null;
  const sqlArgs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('-')) {
      if (dbName === null) dbName = a;
      else sqlArgs.push(a);
      continue;
    }
    const z = a.startsWith('--') ? a.slice(1) : a;
    const n = WITH_ARG.has(z) ? 1 : WITH_TWO_ARGS.has(z) ? 2 : 0;
    if (n === 0 && !FLAGS.has(z)) {
      err(`sqlite3: Error: unknown option: ${a}\nUse -help for a list of options.\n`);
      return os.exit(1);
    }
    if (i + n >= argv.length) {
      err(`sqlite3: Error: missing argument to ${a}\n`);
      return os.exit(1);
    }
    i += n;
  }

  const e = await Engine.load(os.sys, wasmPath(os));
  const sh = new Shell(os, e);
  sh.dbName = dbName ?? ':memory:';
  // A closed output pipe must not lose committed changes: take EPIPE, write the database back, then die of SIGPIPE.
  os.signal(SIGPIPE, SIG_IGN);
  let status = 0;
  let brokenPipe = false;
  try {
    status = run(os, sh, argv, sqlArgs);
  } catch (x) {
    if (x instanceof ShellExit) status = x.status;
    else if (x instanceof WriteError) [status, brokenPipe] = [1, isBrokenPipe(x)];
    else throw x;
  }
  try {
    sh.flush();
  } catch (x) {
    if (!(x instanceof WriteError)) throw x;
    brokenPipe ||= isBrokenPipe(x);
  }
  sh.close();
  if (brokenPipe) {
    os.signal(SIGPIPE, SIG_DFL);
    os.sys.kill(os.pid, SIGPIPE);
  }
  os.exit(status);
}

function run(os: AgentosApi, sh: Shell, argv: string[], sqlArgs: string[]): number {
  const s = sh.s;
  let interactive: boolean | null = null;
  let init: string | null = null;
  // Pass 2: options in order; -cmd runs as it comes.
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('-')) continue;
    const z = a.startsWith('--') ? a.slice(1) : a;
    switch (z) {
      case '-html': s.mode = 'html'; break;
      case '-list': s.mode = 'list'; break;
      case '-quote': [s.mode, s.colSep, s.rowSep] = ['quote', ',', '\n']; break;
      case '-line': s.mode = 'line'; break;
      case '-column': s.mode = 'column'; break;
      case '-json': s.mode = 'json'; break;
      case '-markdown': s.mode = 'markdown'; break;
      case '-table': s.mode = 'table'; break;
      case '-box': s.mode = 'box'; break;
      case '-csv': [s.mode, s.colSep] = ['csv', ',']; break;
      case '-ascii': [s.mode, s.colSep, s.rowSep] = ['ascii', '\x1f', '\x1e']; break;
      case '-tabs': [s.mode, s.colSep] = ['list', '\t']; break;
      case '-separator': s.colSep = argv[++i]; break;
      case '-newline': s.rowSep = argv[++i]; break;
      case '-nullvalue': s.nullValue = argv[++i]; break;
      case '-header': [s.headers, sh.headerSet] = [true, true]; break;
      case '-noheader': [s.headers, sh.headerSet] = [false, true]; break;
      case '-echo': sh.echo = true; break;
      case '-bail': sh.bail = true; break;
      case '-readonly': sh.readonly = true; break;
      case '-batch': interactive = false; break;
      case '-interactive': interactive = true; break;
      case '-init': init = argv[++i]; break;
      case '-version': {
        const [[v, id]] = sh.query('SELECT sqlite_version(), sqlite_source_id()');
        sh.write(`${v} ${id}\n`);
        return 0;
      }
      case '-help':
        sh.err(USAGE);
        return 1;
      case '-cmd': {
        const cmd = argv[++i];
        if (i === argv.length) break;
        const rc = cmdArg(sh, cmd);
        if (rc !== 0 && sh.bail) return rc === 2 ? 0 : rc;
        break;
      }
      case '-lookaside': case '-pagecache': i += 2; break;
      default: if (WITH_ARG.has(z)) i++;
    }
  }
  sh.interactive = interactive ?? (sqlArgs.length === 0 && isTty(os, 0));
  readInit(sh, init);

  if (sqlArgs.length > 0) {
    for (const sql of sqlArgs) {
      if (sql.startsWith('.')) {
        const rc = metaCommand(sh, sql);
        sh.afterCommand();
        if (rc) return rc === 2 ? 0 : rc;
        continue;
      }
      const r = sh.exec(sql);
      sh.sync();
      if (r) {
        sh.err(`Error: ${r.msg}\n`);
        return r.rc !== 0 ? r.rc : 1;
      }
      sh.afterCommand();
    }
    return 0;
  }
  if (sh.interactive) {
    const [[v, id]] = sh.query('SELECT sqlite_version(), sqlite_source_id()');
    sh.write(`SQLite version ${v} ${(id ?? '').slice(0, 19)}\nEnter ".help" for usage hints.\n`);
    if (sh.dbName === ':memory:') {
      sh.write('Connected to a transient in-memory database.\nUse ".open FILENAME" to reopen on a persistent database.\n');
    }
  }
  const r = sh.processInput(fileLines(sh, 0), false, (l) => metaCommand(sh, l));
  if (sh.interactive && !r.quit) sh.write('\n');
  return r.errors > 0 ? 1 : 0;
}

/** A -cmd argument: a dot-command or SQL, errors reported as sqlite3 does. */
function cmdArg(sh: Shell, cmd: string): number {
  if (cmd.startsWith('.')) {
    const rc = metaCommand(sh, cmd);
    sh.afterCommand();
    return rc;
  }
  const r = sh.exec(cmd);
  sh.sync();
  sh.afterCommand();
  if (!r) return 0;
  sh.err(`Error: ${r.msg}\n`);
  return r.rc || 1;
}

function isTty(os: AgentosApi, fd: number): boolean {
  try {
    return os.sys.isatty(fd);
  } catch {
    return false;
  }
}

/** -init FILE, or ~/.sqliterc when it exists. */
function readInit(sh: Shell, init: string | null): void {
  const home = sh.os.env.HOME;
  const file = init ?? (home ? utf8(`${home}/.sqliterc`) : null);
  if (file === null) return;
  let fd: number;
  try {
    fd = sh.os.sys.open(jsString(file));
  } catch (x) {
    if (!(x instanceof SysError)) throw x;
    if (init !== null && x.errno === Errno.ENOENT) sh.err(`cannot open: "${init}"\n`);
    return;
  }
  try {
    if (sh.interactive) sh.err(`-- Loading resources from ${file}\n`);
    sh.processInput(fileLines(sh, fd), true, (l) => metaCommand(sh, l));
  } finally {
    sh.os.sys.close(fd);
  }
}
