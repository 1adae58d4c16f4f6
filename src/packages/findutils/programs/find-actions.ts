// find's actions: -print/-print0/-printf, -delete, -exec/-execdir (";" and "+").

import { strerror, SysError } from '../../../abi/errno.js';
import { S_IFDIR, S_IFMT } from '../../../abi/stat.js';
import { WEXITSTATUS, WIFEXITED } from '../../../abi/wait.js';
import { quote } from '../../../userland/lib/index.js';
import { runCommand } from './spawn.js';
import type { Entry, FindState, Node } from './find-types.js';

export const printNode = (s: FindState, end: string): Node => (e) => {
  s.cmd.out.write(e.path + end);
  return true;
};

export const deleteNode = (s: FindState): Node => (e) => {
  if (e.depth === 0 && e.path === '.') return true; // GNU never removes "."
  const st = e.lstat();
  try {
    if (st && (st.mode & S_IFMT) === S_IFDIR) s.cmd.sys.rmdir(e.path);
    else s.cmd.sys.unlink(e.path);
    return true;
  } catch (err) {
    if (!(err instanceof SysError)) throw err;
    s.cmd.error(`cannot delete ${quote(e.path)}: ${strerror(err.errno)}`);
    return false;
  }
};

function spawnReport(s: FindState, argv: string[], cwd: string | undefined): boolean {
  s.cmd.out.flush();
  const r = runCommand(s.cmd.sys, argv, s.env, { cwd });
  if (!r.ok) {
    // GNU's child reports the failed exec and exits non-zero: the test is false.
    s.cmd.warn(`${quote(argv[0])}: ${strerror(r.errno)}`);
    return false;
  }
  return WIFEXITED(r.status) && WEXITSTATUS(r.status) === 0;
}

/** Where -execdir runs and what it calls the file. */
function dirAndName(s: FindState, e: Entry): { cwd: string; name: string } {
  const p = e.path.replace(/\/+$/, '') || '/';
  const i = p.lastIndexOf('/');
  const dir = i < 0 ? '.' : p.slice(0, i) || '/';
  const base = i < 0 ? p : p.slice(i + 1);
  const abs = dir.startsWith('/') ? dir : `${s.cmd.sys.getcwd().replace(/\/$/, '')}/${dir}`;
  return { cwd: abs, name: base === '/' ? '/' : `./${base}` };
}

/** -exec/-execdir CMD ... ;  — {} replaced wherever it appears in an argument. */
export function execOne(s: FindState, args: string[], inDir: boolean): Node {
  return (e) => {
    const where = inDir ? dirAndName(s, e) : { cwd: undefined, name: e.path };
    const argv = args.map((a) => a.split('{}').join(where.name));
    return spawnReport(s, argv, where.cwd);
  };
}

const BATCH_CHARS = 128 * 1024;

/** -exec CMD ... {} +  — names gathered and run in batches; always true, failure sets the status. */
export function execMany(s: FindState, args: string[], inDir: boolean): Node {
  let batch: string[] = [];
  let cwd: string | undefined;
  let size = 0;
  const run = () => {
    if (batch.length === 0) return;
    const names = batch;
    batch = [];
    size = 0;
    if (!spawnReport(s, [...args, ...names], cwd) && s.cmd.status === 0) s.cmd.status = 1;
  };
  s.finishers.push(run);
  return (e) => {
    const where = inDir ? dirAndName(s, e) : { cwd: undefined, name: e.path };
    // -execdir batches per directory.
    if (inDir && where.cwd !== cwd) run();
    cwd = where.cwd;
    if (size + where.name.length + 1 > BATCH_CHARS) run();
    batch.push(where.name);
    size += where.name.length + 1;
    return true;
  };
}

