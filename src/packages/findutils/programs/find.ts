// find [-H] [-L] [-P] [starting-point...] [expression]
// Search directory trees, evaluating an expression for each file. GNU find is
// the specification; directories are walked in the order readdir returns.

import { strerror, SysError } from '../../../abi/errno.js';
import { isDir, type Stat } from '../../../abi/stat.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { Cmd, Exit, joinPath, quote, WriteError } from '../../../userland/lib/index.js';
import { isExprStart, Parser } from './find-parse.js';
import { printNode } from './find-actions.js';
import { Entry, FindError, Quit, type FindState, type Node } from './find-types.js';
import { envList } from './spawn.js';

const USAGE = `Usage: find [-H] [-L] [-P] [-Olevel] [-D debugopts] [path...] [expression]

default path is the current directory; default expression is -print
expression may consist of: operators, options, tests, and actions:
operators (decreasing precedence; -and is implicit where no others are given):
      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2
      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2
positional options (always true):
      -follow
normal options (always true, specified before other expressions):
      -depth -maxdepth LEVELS -mindepth LEVELS -mount -noleaf -xdev
      -ignore_readdir_race -noignore_readdir_race
tests (N can be +N or -N or N):
      -amin N -atime N -cmin N -ctime N -empty -false -gid N -group NAME
      -iname PATTERN -ipath PATTERN -mmin N -mtime N -name PATTERN
      -newer FILE -path PATTERN -perm [-/]MODE -size N[bcwkMG] -true
      -type [bcdpfls] -uid N -user NAME -wholename PATTERN
actions: -delete -print0 -printf FORMAT -print -prune -quit
      -exec COMMAND ; -exec COMMAND {} + -execdir COMMAND ; -execdir COMMAND {} +
`;

export default function main(os: AgentosApi): void {
  const c = new Cmd(os, { name: 'find', usage: USAGE });
  let status: number;
  try {
    status = run(c, os.argv.slice(1));
    c.out.flush();
  } catch (e) {
    status = finish(c, e);
  }
  os.exit(status);
}

function finish(c: Cmd, e: unknown): number {
  if (e instanceof FindError) {
    c.warn(e.message);
    return 1;
  }
  if (e instanceof Exit) {
    c.out.flush();
    return e.status;
  }
  if (e instanceof WriteError) {
    c.sys.writeAll(2, `find: write error: ${strerror(e.errno)}\n`);
    return 1;
  }
  throw e;
}

function run(c: Cmd, args: string[]): number {
  const s: FindState = {
    cmd: c, env: envList(c.os.env), maxdepth: Infinity, mindepth: 0, depthFirst: false, xdev: false,
    follow: 'P', quit: false, finishers: [], now: Date.now(),
  };
  let i = 0;
  // Leading -H/-L/-P (and clusters like -HL): the last one wins.
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    if (!/^-[HLP]+$/.test(a)) break;
    s.follow = a[a.length - 1] as FindState['follow'];
  }
  if (args[i] === '--help' || args[i] === '-help') {
    c.out.write(USAGE);
    return 0;
  }
  if (args[i] === '--version' || args[i] === '-version') {
    c.out.write('find (agentOS findutils) 0.1.0\n');
    return 0;
  }
  const starts: string[] = [];
  while (i < args.length && !isExprStart(args[i])) starts.push(args[i++]);
  const p = new Parser(args.slice(i), s);
  const parsed = p.parse();
  if (parsed.usesDelete && parsed.usesPrune && !p.explicitDepth) {
    throw new FindError(
      'The -delete action automatically turns on -depth, but -prune does nothing when -depth is in effect.  If you want to carry on anyway, just explicitly use the -depth option.',
    );
  }
  let root: Node = parsed.root;
  if (!parsed.hasAction) {
    const expr = root;
    const print = printNode(s, '\n');
    root = (e) => expr(e) && print(e);
  }
  try {
    for (const start of starts.length ? starts : ['.']) walkStart(s, root, start);
  } catch (e) {
    if (!(e instanceof Quit)) throw e;
  }
  for (const f of s.finishers) f();
  return c.status;
}

function walkStart(s: FindState, root: Node, start: string): void {
  if (start === '') {
    s.cmd.error(`${quote('')}: No such file or directory`);
    return;
  }
  const e = new Entry(s.cmd, start, 0, start, s.follow !== 'P');
  if (e.lstat() === null) {
    try {
      s.cmd.sys.lstat(start);
    } catch (err) {
      report(s, start, err);
      return;
    }
  }
  const st = e.stat();
  visit(s, root, e, st?.dev ?? 0, []);
}

function report(s: FindState, path: string, err: unknown): void {
  if (!(err instanceof SysError)) throw err;
  s.cmd.error(`${quote(path)}: ${strerror(err.errno)}`);
}

/** Visit one file: evaluate (before or after its children) and descend into directories. */
function visit(s: FindState, root: Node, e: Entry, dev: number, ancestors: Stat[]): void {
  const st = e.stat();
  const evaluate = e.depth >= s.mindepth;
  if (evaluate && !s.depthFirst) root(e);
  const descend = st !== null && isDir(st.mode) && e.depth < s.maxdepth && !(e.prune && !s.depthFirst) && !(s.xdev && st.dev !== dev);
  if (descend && st) {
    const loop = ancestors.find((a) => a.dev === st.dev && a.ino === st.ino);
    if (loop && e.follow) {
      s.cmd.error(`File system loop detected; ${quote(e.path)} is part of the same file system loop as ${quote(loopPath(e, ancestors, loop))}.`);
    } else {
      let names: string[] = [];
      try {
        names = s.cmd.sys.readdir(e.path).map((d) => d.name).filter((n) => n !== '.' && n !== '..');
      } catch (err) {
        report(s, e.path, err);
      }
      const chain = [...ancestors, st];
      for (const name of names) {
        const child = new Entry(s.cmd, joinPath(e.path, name), e.depth + 1, e.start, s.follow === 'L');
        if (child.lstat() === null) {
          try {
            s.cmd.sys.lstat(child.path);
          } catch (err) {
            report(s, child.path, err);
            continue;
          }
        }
        visit(s, root, child, dev, chain);
            }
    }
  }
  if (evaluate && s.depthFirst) root(e);
}

/** The path of the ancestor a loop returns to: the same number of components up. */
function loopPath(e: Entry, ancestors: Stat[], loop: Stat): string {
  const up = ancestors.length - ancestors.indexOf(loop);
  let p = e.path;
  for (let k = 0; k < up; k++) p = p.slice(0, Math.max(p.lastIndexOf('/'), 0)) || '.';
  return p;
}
