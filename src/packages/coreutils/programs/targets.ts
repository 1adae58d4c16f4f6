// SOURCE... DEST operand handling shared by cp, mv and ln: a directory target
// (last operand, or -t DIR) takes every source by its base name; -T forbids it.

import { isDir } from '../../../abi/stat.js';
import { baseName, joinPath, quoteaf, tryStat, type Cmd } from '../../../userland/lib/index.js';

/** [source, final destination path] pairs; reports usage errors and exits. */
export function plan(c: Cmd, allowOne = false): [string, string][] {
  const ops = c.operands;
  let dir = c.get('t');
  if (dir === undefined) {
    if (ops.length === 0) c.usage('missing file operand');
    if (ops.length === 1 && !allowOne) c.usage(`missing destination file operand after ${quoteaf(ops[0])}`);
    if (ops.length === 1) return [[ops[0], baseName(ops[0])]];
    const last = ops[ops.length - 1];
    const st = tryStat(c.sys, last);
    if (c.has('T')) {
      if (ops.length > 2) c.usage(`extra operand ${quoteaf(ops[2])}`);
      return [[ops[0], last]];
    }
    if (!st || !isDir(st.mode)) {
      if (ops.length > 2) {
        c.error(`target ${quoteaf(last)}${st ? ' is not a directory' : ': No such file or directory'}`);
        c.exit(1);
      }
      return [[ops[0], last]];
    }
    dir = last;
    return ops.slice(0, -1).map((s) => [s, joinPath(dir!, baseName(s))]);
  }
  const st = tryStat(c.sys, dir);
  if (!st || !isDir(st.mode)) {
    c.error(`target directory ${quoteaf(dir)}: ${st ? 'Not a directory' : 'No such file or directory'}`);
    c.exit(1);
  }
  if (ops.length === 0) c.usage('missing file operand');
  return ops.map((s) => [s, joinPath(dir!, baseName(s))]);
}
