// chown [-cfhvR] [-HLP] [--from=CUR] [--reference=RFILE | OWNER[:[GROUP]]] FILE...:
// change file owner and group (names from /etc/passwd and /etc/group, or numbers).

import { isDir, isLnk, type Stat } from '../../../abi/stat.js';
import { command, groupName, groups, joinPath, quote, quoteaf, userName, users, type Cmd } from '../../../userland/lib/index.js';

const USAGE = `Usage: chown [OPTION]... [OWNER][:[GROUP]] FILE...
  or:  chown [OPTION]... --reference=RFILE FILE...
Change the owner and/or group of each FILE to OWNER and/or GROUP.
With --reference, change the owner and group of each FILE to those of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --dereference      affect the referent of each symbolic link (this is
                         the default), rather than the symbolic link itself
  -h, --no-dereference   affect symbolic links instead of any referenced file
      --from=CURRENT_OWNER:CURRENT_GROUP
                         change the owner and/or group of each file only if
                         its current owner and/or group match those specified
                         here.  Either may be omitted, in which case a match
                         is not required for the omitted attribute
      --reference=RFILE  use RFILE's owner and group rather than
                         specifying OWNER:GROUP values
  -R, --recursive        operate on files and directories recursively

The following options modify how a hierarchy is traversed when the -R
option is also specified.  If more than one is specified, only the final
one takes effect.

  -H                     if a command line argument is a symbolic link
                         to a directory, traverse it
  -L                     traverse every symbolic link to a directory
                         encountered
  -P                     do not traverse any symbolic links (default)

      --help     display this help and exit
      --version  output version information and exit

Owner is unchanged if missing.  Group is unchanged if missing, but changed
to login group if implied by a ':' following a symbolic OWNER.
OWNER and GROUP may be numeric as well as symbolic.
`;

/** A parsed OWNER:GROUP: ids (-1 = unchanged) and the names diagnostics print. */
interface Spec {
  uid: number;
  gid: number;
  user: string | null;
  group: string | null;
}

interface Plan {
  spec: Spec;
  from: Spec | null;
  deref: boolean;
  traverse: 'H' | 'L' | 'P';
  recurse: boolean;
  verbose: 'all' | 'changes' | null;
  quiet: boolean;
}

export const chown = command(
  {
    name: 'chown',
    usage: USAGE,
    short: 'cfhvRHLP',
    long: {
      changes: ['c', 'none'], silent: ['f', 'none'], quiet: ['f', 'none'], verbose: ['v', 'none'],
      dereference: ['D', 'none'], 'no-dereference': ['h', 'none'], from: ['F', 'required'],
      reference: ['r', 'required'], recursive: ['R', 'none'], 'preserve-root': ['p', 'none'], 'no-preserve-root': ['n', 'none'],
    },
  },
  (c) => {
    let traverse: Plan['traverse'] = 'P';
    let deref: boolean | null = null;
    for (const [k] of c.all) {
      if (k === 'H' || k === 'L' || k === 'P') traverse = k;
      else if (k === 'h') deref = false;
      else if (k === 'D') deref = true;
    }
    const recurse = c.has('R');
    if (recurse && traverse === 'P') {
      if (deref === true) c.fail('-R --dereference requires either -H or -L');
      deref = false;
    }
    const ops = [...c.operands];
    const ref = c.get('r');
    if (ops.length < (ref === undefined ? 2 : 1)) c.usage(ops.length ? `missing operand after ${quote(ops[ops.length - 1])}` : 'missing operand');
    let spec: Spec;
    if (ref !== undefined) {
      let st: Stat;
      try {
        st = c.sys.stat(ref);
      } catch (e) {
        c.sysError(`failed to get attributes of ${quoteaf(ref)}`, e);
        return c.exit(1);
      }
      spec = { uid: st.uid, gid: st.gid, user: idName(c, st.uid, true), group: idName(c, st.gid, false) };
    } else spec = parseSpec(c, ops.shift()!);
    const from = c.has('F') ? parseSpec(c, c.get('F')!) : null;
    const plan: Plan = {
      spec, from, deref: deref ?? true, traverse, recurse,
      verbose: c.has('v') ? 'all' : c.has('c') ? 'changes' : null, quiet: c.has('f'),
    };
    for (const f of ops) change(c, plan, f, true);
  },
);

/** A name for diagnostics: the user's or group's name, else the number. */
function idName(c: Cmd, id: number, user: boolean): string {
  return (user ? userName(c.sys, id) : groupName(c.sys, id)) ?? String(id);
}

/** OWNER[:GROUP], OWNER:, :GROUP, OWNER.GROUP (warned), '+N' forces a number. */
function parseSpec(c: Cmd, s: string): Spec {
  let colon = s.indexOf(':');
  if (colon < 0 && s.includes('.') && !users(c.sys).some((u) => u.name === s)) {
    const dot = s.indexOf('.');
    const u = s.slice(0, dot);
    if (u === '' || lookupUser(c, u) !== null) {
      colon = dot;
      c.warn(`warning: '.' should be ':': ${quote(s)}`);
    }
  }
  const userPart = colon < 0 ? s : s.slice(0, colon);
  const groupPart = colon < 0 ? null : s.slice(colon + 1);
  const spec: Spec = { uid: -1, gid: -1, user: null, group: null };
  if (userPart !== '') {
    const u = lookupUser(c, userPart);
    if (u === null) c.fail(`invalid user: ${quote(s)}`);
    spec.uid = u.id;
    spec.user = u.name;
    if (groupPart === '') {
      // OWNER: means OWNER's login group, which a bare number does not have.
      const entry = users(c.sys).find((e) => e.id === u.id && e.name === userPart);
      if (!entry) c.fail(`invalid spec: ${quote(s)}`);
      spec.gid = entry.gid;
      spec.group = idName(c, entry.gid, false);
    }
  }
  if (groupPart) {
    const g = lookupGroup(c, groupPart);
    if (g === null) c.fail(`invalid group: ${quote(s)}`);
    spec.gid = g.id;
    spec.group = g.name;
  }
  return spec;
}

function lookupUser(c: Cmd, s: string): { id: number; name: string } | null {
  const hit = !s.startsWith('+') && users(c.sys).find((u) => u.name === s);
  if (hit) return { id: hit.id, name: s };
  return numeric(s);
}

function lookupGroup(c: Cmd, s: string): { id: number; name: string } | null {
  const hit = !s.startsWith('+') && groups(c.sys).find((g) => g.name === s);
  if (hit) return { id: hit.id, name: s };
  return numeric(s);
}

function numeric(s: string): { id: number; name: string } | null {
  const m = /^\+?(\d+)$/.exec(s);
  if (!m || Number(m[1]) > 0xfffffffe) return null;
  return { id: Number(m[1]), name: String(Number(m[1])) };
}

function change(c: Cmd, p: Plan, path: string, top: boolean): void {
  const report = (verb: string, e: unknown) => {
    if (!p.quiet) c.cannot(verb, path, e);
    else c.status = 1;
  };
  let lst: Stat;
  try {
    lst = c.sys.lstat(path);
  } catch (e) {
    return report('access', e);
  }
  // -H follows symbolic links named as operands, -L every one; either way the referent's owner changes.
  const traverse = top ? p.traverse !== 'P' : p.traverse === 'L';
  let target: Stat | null = null;
  if (isLnk(lst.mode) && (p.deref || traverse)) {
    try {
      target = c.sys.stat(path);
    } catch (e) {
      if (p.deref) return report('dereference', e);
    }
  }
  const node = traverse && target ? target : lst;
  // Directories are changed after their contents, as GNU does.
  if (p.recurse && isDir(node.mode)) {
    let names: string[] = [];
    try {
      names = c.sys.readdir(path).map((e) => e.name).filter((n) => n !== '.' && n !== '..');
    } catch (e) {
      report('read directory', e);
    }
    for (const n of names) change(c, p, joinPath(path, n), false);
  }
  apply(c, p, path, p.deref && target ? target : lst, p.deref);
}

function apply(c: Cmd, p: Plan, path: string, st: Stat, deref: boolean): void {
  const { spec, from } = p;
  const matches = !from || ((from.uid === -1 || from.uid === st.uid) && (from.gid === -1 || from.gid === st.gid));
  const uid = matches ? spec.uid : -1;
  const gid = matches ? spec.gid : -1;
  const changed = matches && ((uid !== -1 && uid !== st.uid) || (gid !== -1 && gid !== st.gid));
  let ok = true;
  if (matches && (uid !== -1 || gid !== -1)) {
    try {
      if (deref) c.sys.chown(path, uid, gid);
      else c.sys.lchown(path, uid, gid);
    } catch (e) {
      ok = false;
      if (!p.quiet) c.sysError(`changing ownership of ${quoteaf(path)}`, e);
      else c.status = 1;
    }
  }
  if (!p.verbose || (p.verbose === 'changes' && !(changed && ok))) return;
  const user = spec.user;
  const group = spec.group;
  const both = (u: string | null, g: string | null) => (u !== null ? (g !== null ? `${u}:${g}` : u) : g);
  const to = both(user, group);
  const old = both(user !== null ? idName(c, st.uid, true) : null, group !== null ? idName(c, st.gid, false) : null);
  const what = user !== null ? 'ownership' : 'group';
  const name = quoteaf(path);
  if (!ok) c.out.write(`failed to change ${what} of ${name} from ${old} to ${to}\n`);
  else if (changed) c.out.write(`changed ${what} of ${name} from ${old} to ${to}\n`);
  else if (to === null) c.out.write(`ownership of ${name} retained\n`);
  else c.out.write(`${what} of ${name} retained as ${old}\n`);
}
