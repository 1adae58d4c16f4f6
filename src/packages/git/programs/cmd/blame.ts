// git blame [-s] [-e] [-n] [-f] [-l] [-t] [-b] [--root] [-p | --porcelain | --line-porcelain]
//           [-L <start>,<end>] [--abbrev=<n>] [<rev> | <range>] [--] <file>
//
// Which commit last changed each line: blame passes, newest commit first,
// every line a parent has unchanged (by the same line diff git uses) to that
// parent, following the file across renames; what is left is the commit's.
// Lines not committed yet belong to a "Not Committed Yet" commit.

import type { Ctx } from '../core/ctx.js';
import { compareSnapshots } from '../core/changes.js';
import { formatDate, localTz } from '../core/date.js';
import { ancestors } from '../core/graph.js';
import { subjectOf } from '../core/message.js';
import { hashBlob, Store, ZERO_OID, type Commit, type Ident } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { quotePath } from '../core/quote.js';
import { readHead } from '../core/refs.js';
import { inexactRenames } from '../core/renames.js';
import { commitOrDie } from '../core/revargs.js';
import { indexSnapshot } from '../core/state.js';
import { Worktree } from '../core/worktree.js';
import { storeLoader } from '../diff/engine.js';
import { diffLines, splitLines } from '../diff/xdiff.js';
import { abbrevUnique } from '../core/abbrev.js';

const USAGE = `usage: git blame [<options>] [<rev-opts>] [<rev>] [--] <file>

    <rev-opts> are documented in git-rev-list(1)

    --incremental         show blame entries as we find them, incrementally
    -b                    do not show object names of boundary commits (Default: off)
    --root                do not treat root commits as boundaries (Default: off)
    --show-stats          show work cost statistics
    --progress            force progress reporting
    --score-debug         show output score for blame entries
    -f, --show-name       show original filename (Default: auto)
    -n, --show-number     show original linenumber (Default: off)
    -p, --porcelain       show in a format designed for machine consumption
    --line-porcelain      show porcelain format with per-line commit information
    -c                    use the same output mode as git-annotate (Default: off)
    -t                    show raw timestamp (Default: off)
    -l                    show long commit SHA1 (Default: off)
    -s                    suppress author name and timestamp (Default: off)
    -e, --show-email      show author email instead of name (Default: off)
    -w                    ignore whitespace differences
    --ignore-rev <rev>    ignore <rev> when blaming
    --ignore-revs-file <file>
                          ignore revisions from <file>
    --color-lines         color redundant metadata from previous line differently
    --color-by-age        color lines by age
    --minimal             spend extra cycles to find better match
    -S <file>             use revisions from <file> instead of calling git-rev-list
    --contents <file>     use <file>'s contents as the final image
    -C[<score>]           find line copies within and across files
    -M[<score>]           find line movements within and across files
    -L <range>            process only line range <start>,<end> or function :<funcname>
    --abbrev[=<n>]        use <n> digits to display object names

`;

const latin1 = (b: Uint8Array) => {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return s;
};

/** A version of the file in one commit (git's blame_origin). */
interface Origin {
  commit: Commit;
  path: string;
  blob: string;
  lines: string[];
  /** Lines it is suspected of: [final line, line in this version], both 0-based. */
  suspects: [number, number][];
  previous: Origin | null;
  /** The fake commit for uncommitted lines. */
  fake: boolean;
}

interface Blamed {
  origin: Origin;
  lno: number;
  sLno: number;
}

export async function blame(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    {
      '|incremental': 'bool', b: 'bool', '|root': 'bool', '|show-stats': 'bool', '|progress': 'bool', '|score-debug': 'bool', 'f|show-name': 'bool',
      'n|show-number': 'bool', 'p|porcelain': 'bool', '|line-porcelain': 'bool', c: 'bool', t: 'bool', l: 'bool', s: 'bool', 'e|show-email': 'bool', w: 'bool',
      '|ignore-rev': 'str', '|ignore-revs-file': 'str', '|color-lines': 'bool', '|color-by-age': 'bool', '|minimal': 'bool', S: 'str', '|contents': 'str',
      C: 'opt', M: 'opt', L: 'str', '|abbrev': 'opt', '|first-parent': 'bool', '|date': 'str', '|reverse': 'bool',
    },
    USAGE,
  );
  const repo = ctx.repo();
  const store = new Store(ctx);
  for (const k of ['incremental', 'reverse', 'contents', 'ignore-rev', 'ignore-revs-file', 'S', 'C', 'M', 'c']) if (o.given(k)) ctx.fatal(`${k.length === 1 ? '-' : '--'}${k} is not supported by agentOS git`);
  // [<rev> | <range>] [--] <file>: the last operand is the file
  const ops = o.operands;
  if (!ops.length) {
    ctx.err(USAGE);
    return 129;
  }
  const file = ops[ops.length - 1];
  const revs = ops.slice(0, -1);
  if (revs.length > 1) ctx.fatal('More than one commit to dig from: ' + revs.join(' '));
  const top = repo.dir ?? '';
  const rel = (repo.prefix + file).split('/').reduce<string[]>((acc, p) => (p === '..' ? acc.slice(0, -1) : p === '.' || p === '' ? acc : [...acc, p]), []).join('/');

  // where to start, and where history stops (a range's excluded side)
  let boundaryIds = new Set<string>();
  let final: Origin;
  const wantRoot = o.has('root') || ctx.configBool('blame.showRoot', false);
  const readLines = (data: Uint8Array) => splitLines(latin1(data));
  if (revs.length) {
    const range = /^(.*?)\.\.(.*)$/.exec(revs[0]);
    const startName = range ? range[2] || 'HEAD' : revs[0];
    const start = await commitOrDie(ctx, store, startName);
    if (!start) ctx.fatal(`bad revision '${startName}'`);
    if (range) {
      const from = await commitOrDie(ctx, store, range[1] || 'HEAD');
      if (!from) ctx.fatal(`bad revision '${range[1]}'`);
      boundaryIds = await ancestors(store, [from]);
    }
    const c = await store.commit(start);
    const item = (await store.flatTree(c.tree)).get(rel);
    if (!item) ctx.fatal(`no such path ${rel} in ${revs[0]}`);
    const data = await store.blob(item.oid);
    final = { commit: c, path: rel, blob: item.oid, lines: readLines(data), suspects: [], previous: null, fake: false };
  } else {
    // the work tree's file, as a commit on top of HEAD (and any merge in progress)
    const head = await readHead(ctx);
    const idx = ctx.readIndex();
    const headTree = await store.commitTree(head.oid);
    if (!headTree.has(rel) && !idx.byPath.has(rel)) ctx.fatal(`no such path '${rel}' in HEAD`);
    if (!ctx.exists(`${top}/${rel}`)) ctx.fatal(`Cannot lstat '${file}': No such file or directory`);
    const wt = new Worktree(ctx, top, idx);
    const st = ctx.sys.lstat(`${top}/${rel}`);
    const data = wt.content({ path: rel, mode: 0o100644, st });
    const now = Math.floor(Date.now() / 1000);
    const me: Ident = { name: 'Not Committed Yet', email: 'not.committed.yet', time: now, tz: localTz(now) };
    const merges = (ctx.readText(`${repo.gitdir}/MERGE_HEAD`) ?? '').split('\n').filter(Boolean);
    const parents = head.oid ? [head.oid, ...merges] : [];
    const fakeCommit: Commit = { oid: ZERO_OID, tree: '', parents, author: me, committer: me, message: 'Version of ' + rel + ' from ' + rel + '\n' };
    final = { commit: fakeCommit, path: rel, blob: await hashBlob(data), lines: readLines(data), suspects: [], previous: null, fake: true };
  }

  // -L ranges (start,end / start,+count / start,-count)
  let from = 0;
  let to = final.lines.length;
  const L = o.get('L');
  if (L !== undefined) {
    const m = /^(\d+)?(?:,([+-]?)(\d+)?)?$/.exec(L);
    if (!m) ctx.fatal(`invalid -L argument: ${L}`);
    const a = m[1] ? Number(m[1]) : 1;
    let b = m[3] !== undefined ? Number(m[3]) : final.lines.length;
    if (m[2] === '+') b = a + b - 1;
    else if (m[2] === '-') [from, to] = [Math.max(0, a - b), a];
    if (m[2] !== '-') [from, to] = [a - 1, b];
    if (from >= final.lines.length && final.lines.length) ctx.fatal(`file ${rel} has only ${final.lines.length} line${final.lines.length === 1 ? '' : 's'}`);
    to = Math.min(to, final.lines.length);
  }
  for (let i = from; i < to; i++) final.suspects.push([i, i]);

  // the scoreboard: newest commit first, ties in the order they came
  const queue: Origin[] = [final];
  const origins = new Map<string, Origin>();
  const key = (oid: string, path: string) => `${oid}\0${path}`;
  origins.set(key(final.commit.oid, rel), final);
  const blamed: Blamed[] = [];
  const getOrigin = async (c: Commit, path: string, blob: string): Promise<Origin> => {
    const k = key(c.oid, path);
    let og = origins.get(k);
    if (!og) {
      og = { commit: c, path, blob, lines: readLines(await store.blob(blob)), suspects: [], previous: null, fake: false };
      origins.set(k, og);
    }
    return og;
  };
  const enqueue = (og: Origin) => {
    if (queue.includes(og)) return;
    let i = 0;
    while (i < queue.length && queue[i].commit.committer.time >= og.commit.committer.time) i++;
    queue.splice(i, 0, og);
  };
  /** find_origin, then find_rename: the file in a parent. */
  const findOrigin = async (parent: Commit, og: Origin, renames: boolean): Promise<Origin | null> => {
    const ptree = await store.flatTree(parent.tree);
    if (!renames) {
      const item = ptree.get(og.path);
      if (!item || (item.mode & 0o170000) !== 0o100000 && item.mode !== 0o120000) return null;
      return getOrigin(parent, og.path, item.oid);
    }
    // the fake commit's tree is the index with the file as it is on disk
    const mine = og.fake ? new Map([...indexSnapshot(ctx.readIndex()), [og.path, { mode: 0o100644, oid: og.blob }]]) : await store.flatTree(og.commit.tree);
    let changes = compareSnapshots(ptree, mine, { renames: true });
    changes = await inexactRenames(changes, storeLoader(store));
    const hit = changes.find((ch) => ch.status === 'R' && ch.newPath === og.path);
    return hit ? getOrigin(parent, hit.oldPath, hit.old!.oid) : null;
  };
  /** Hand the lines a parent has unchanged to it (pass_blame_to_parent). */
  const passTo = (og: Origin, parent: Origin) => {
    const changes = diffLines(parent.lines, og.lines);
    const stay: [number, number][] = [];
    for (const [lno, s] of og.suspects) {
      // where does origin line s fall: in a change (stays), or common (offset into the parent)?
      let offset = 0;
      let inChange = false;
      for (const ch of changes) {
        if (s < ch.i2) break;
        if (s < ch.i2 + ch.chg2) {
          inChange = true;
          break;
        }
        offset = ch.i1 + ch.chg1 - (ch.i2 + ch.chg2);
      }
      if (inChange) stay.push([lno, s]);
      else parent.suspects.push([lno, s + offset]);
    }
    og.suspects = stay;
  };

  while (queue.length) {
    const og = queue.shift()!;
    if (!og.suspects.length) continue;
    const c = og.commit;
    const boundary = boundaryIds.has(c.oid);
    if (!boundary) {
      const parents = o.has('first-parent') ? c.parents.slice(0, 1) : c.parents;
      const sg: (Origin | null)[] = parents.map(() => null);
      let whole: Origin | null = null;
      for (const renames of [false, true]) {
        for (let i = 0; i < parents.length && !whole; i++) {
          if (sg[i]) continue;
          const p = await findOrigin(await store.commit(parents[i]), og, renames);
          if (!p) continue;
          if (p.blob === og.blob) {
            whole = p;
            break;
          }
          if (!sg.slice(0, i).some((x) => x && x.blob === p.blob)) sg[i] = p;
        }
        if (whole) break;
      }
      if (whole) {
        whole.suspects.push(...og.suspects);
        og.suspects = [];
        enqueue(whole);
        continue;
      }
      for (const p of sg) {
        if (!p) continue;
        og.previous ??= p;
        passTo(og, p);
        if (p.suspects.length) enqueue(p);
        if (!og.suspects.length) break;
      }
    }
    for (const [lno, sLno] of og.suspects) blamed.push({ origin: og, lno, sLno });
    og.suspects = [];
  }
  blamed.sort((x, y) => x.lno - y.lno);
  const isBoundary = (og: Origin) => boundaryIds.has(og.commit.oid) || (!og.fake && og.commit.parents.length === 0 && !wantRoot);

  // coalesce: runs of lines from one origin, consecutive there too
  interface Entry {
    origin: Origin;
    lno: number;
    sLno: number;
    n: number;
  }
  const entries: Entry[] = [];
  for (const b of blamed) {
    const last = entries[entries.length - 1];
    if (last && last.origin === b.origin && last.sLno + last.n === b.sLno && last.lno + last.n === b.lno) last.n++;
    else entries.push({ origin: b.origin, lno: b.lno, sLno: b.sLno, n: 1 });
  }

  const out: string[] = [];
  const line = (i: number) => final.lines[i].replace(/\n$/, '');
  const dateMode = o.get('date') ?? ctx.config('blame.date') ?? 'iso';
  if (o.has('porcelain') || o.has('line-porcelain')) {
    const shown = new Set<string>();
    const repeat = o.has('line-porcelain');
    const paths = new Map<string, Set<string>>();
    for (const e of entries) {
      const s = paths.get(e.origin.commit.oid) ?? new Set<string>();
      s.add(e.origin.path);
      paths.set(e.origin.commit.oid, s);
    }
    const details = (og: Origin) => {
      const c = og.commit;
      const first = !shown.has(c.oid);
      let s = '';
      if (repeat || first) {
        shown.add(c.oid);
        s += `author ${c.author.name}\nauthor-mail <${c.author.email}>\nauthor-time ${c.author.time}\nauthor-tz ${c.author.tz}\n`;
        s += `committer ${c.committer.name}\ncommitter-mail <${c.committer.email}>\ncommitter-time ${c.committer.time}\ncommitter-tz ${c.committer.tz}\n`;
        s += `summary ${og.fake ? c.message.replace(/\n$/, '') : subjectOf(c.message)}\n`;
        if (isBoundary(og)) s += 'boundary\n';
      }
      if (repeat || first || paths.get(c.oid)!.size > 1) {
        if (og.previous) s += `previous ${og.previous.commit.oid} ${quotePath(og.previous.path)}\n`;
        s += `filename ${quotePath(og.path)}\n`;
      }
      return s;
    };
    for (const e of entries) {
      const id = e.origin.commit.oid;
      out.push(`${id} ${e.sLno + 1} ${e.lno + 1} ${e.n}\n${details(e.origin)}\t${line(e.lno)}\n`);
      for (let k = 1; k < e.n; k++) out.push(`${id} ${e.sLno + 1 + k} ${e.lno + 1 + k}\n${repeat ? details(e.origin) : ''}\t${line(e.lno + k)}\n`);
    }
    ctx.out.write(Uint8Array.from(out.join(''), (ch) => ch.charCodeAt(0)));
    return 0;
  }
  // the default format: abbreviated id (one longer, for the boundary's ^), name, date, line number
  const abbrev = o.has('l') ? 40 : o.given('abbrev') ? Math.max(4, Number(o.get('abbrev') ?? 7)) + 1 : await autoAbbrev(ctx, entries.map((e) => e.origin.commit.oid));
  const showName = o.has('show-name') || entries.some((e) => e.origin.path !== rel);
  const longestFile = Math.max(0, ...entries.map((e) => e.origin.path.length));
  const who = (c: Commit) => (o.has('show-email') ? `<${c.author.email}>` : c.author.name);
  const longestAuthor = Math.max(0, ...entries.map((e) => [...who(e.origin.commit)].length));
  const maxDigits = String(Math.max(0, ...entries.map((e) => e.lno + e.n))).length;
  const maxOrig = String(Math.max(0, ...entries.map((e) => e.sLno + e.n))).length;
  for (const e of entries) {
    const c = e.origin.commit;
    for (let k = 0; k < e.n; k++) {
      let length = abbrev;
      let s = '';
      let hex = c.oid;
      if (isBoundary(e.origin)) {
        if (o.has('b')) hex = ' '.repeat(40);
        else {
          length--;
          s += '^';
        }
      }
      s += hex.slice(0, length);
      if (showName) s += ` ${e.origin.path.padEnd(longestFile).slice(0, longestFile)}`;
      if (o.has('show-number')) s += ` ${String(e.sLno + 1 + k).padStart(maxOrig)}`;
      if (!o.has('s')) {
        const name = who(c);
        const when = o.has('t') ? `${c.author.time} ${c.author.tz}` : formatDate(c.author.time, c.author.tz, dateMode === 'iso' ? 'iso' : (dateMode as 'iso'));
        s += ` (${name}${' '.repeat(longestAuthor - [...name].length)} ${when.padEnd(10)}`;
      }
      s += ` ${String(e.lno + 1 + k).padStart(maxDigits)}) `;
      out.push(`${s}${line(e.lno + k)}\n`);
    }
  }
  ctx.out.write(Uint8Array.from(out.join(''), (ch) => ch.charCodeAt(0)));
  return 0;
}

/** git's auto abbreviation for blame: unique for every commit shown, plus one for the boundary mark. */
async function autoAbbrev(ctx: Ctx, oids: string[]): Promise<number> {
  let len = 7;
  for (const oid of new Set(oids)) if (oid !== ZERO_OID) len = Math.max(len, (await abbrevUnique(ctx, oid, 7)).length);
  return len + 1;
}
