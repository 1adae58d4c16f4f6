// git add [--verbose | -v] [--dry-run | -n] [--force | -f] [--all | -A | --no-all]
//         [--update | -u] [--ignore-removal] [--] [<pathspec>...]
//
// Stage new, modified and deleted files matching the pathspec.

import type { Ctx } from '../core/ctx.js';
import { parseOptions } from '../core/opts.js';
import { pathspec, showPath, type Pathspec } from '../core/pathspec.js';
import { quotePath } from '../core/quote.js';
import { updateIndex } from '../core/stage.js';
import { worktreeSnapshot } from '../core/state.js';
import { Worktree } from '../core/worktree.js';

const USAGE = `usage: git add [<options>] [--] <pathspec>...

    -n, --dry-run         dry run
    -v, --verbose         be verbose

    -f, --force           allow adding otherwise ignored files
    -u, --update          update tracked files
    -A, --all             add changes from all tracked and untracked files
    --ignore-removal      ignore paths removed in the working tree (same as --no-all)
    --refresh             don't add, only refresh the index
    --ignore-errors       just skip files which cannot be added because of errors
`;

export async function add(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    { 'n|dry-run': 'bool', 'v|verbose': 'bool', 'f|force': 'bool', 'u|update': 'bool', 'A|all': 'bool', '|ignore-removal': 'bool', '|refresh': 'bool', '|ignore-errors': 'bool', 'N|intent-to-add': 'bool', 'p|patch': 'bool', 'i|interactive': 'bool' },
    USAGE,
  );
  const repo = ctx.worktree();
  if (o.has('patch') || o.has('interactive')) ctx.fatal('interactive add is not supported in agentOS git');
  const all = o.has('all') || (o.given('all') === false && o.operands.length > 0);
  const update = o.has('update');
  if (o.operands.length === 0 && !o.has('all') && !update) {
    ctx.err('Nothing specified, nothing added.\n');
    ctx.hint(["Maybe you wanted to say 'git add .'?", 'Turn this message off by running', '"git config advice.addEmptyPathspec false"']);
    return 0;
  }
  const noRemoval = o.has('ignore-removal') || (o.given('all') && !o.has('all'));
  const ps: Pathspec = pathspec(ctx, o.operands.length ? o.operands : [':/']);
  const index = ctx.readIndex();
  const wt = new Worktree(ctx, repo.dir, index).scan({ untracked: update ? 'no' : 'all', ignored: true });
  const toAdd: string[] = [];
  const toRemove: string[] = [];
  const tracked = [...index.byPath.keys(), ...index.unmerged.keys()].filter((p) => ps.match(p));
  const work = await worktreeSnapshot(wt, tracked);
  for (const p of tracked) {
    const w = work.get(p);
    const e = index.byPath.get(p);
    if (!w) {
      if (!noRemoval && (all || update || o.operands.length)) toRemove.push(p);
    } else if (!e || e.oid !== w.oid || e.mode !== w.mode || index.unmerged.has(p)) toAdd.push(p);
  }
  if (!update) for (const p of wt.untracked) if (ps.match(p)) toAdd.push(p);
  // ignored paths: added with -f, refused when named on the command line
  const ignored: string[] = [];
  for (const p of wt.ignoredPaths) {
    const path = p.replace(/\/$/, '');
    const named = ps.items.filter((it) => !it.exclude && !it.glob && (it.path === path || it.path.startsWith(path + '/')));
    if (o.has('force')) {
      for (const f of listFiles(ctx, repo.dir, path)) if (named.length || ps.match(f)) toAdd.push(f);
    } else if (named.length) {
      ignored.push(path);
      for (const it of named) it.matched = true;
    }
  }
  const bad = ps.unmatched().filter((it) => !ctx.exists(`${repo.dir}/${it.path}`));
  if (bad.length && !o.has('ignore-errors')) ctx.fatal(`pathspec '${bad[0].raw}' did not match any files`);
  if (o.has('dry-run') || o.has('verbose')) {
    // tracked paths first (in index order), then the new ones
    const trackedSet = new Set(tracked);
    const lines = [...toAdd.filter((p) => trackedSet.has(p)).map((p) => [p, 'add'] as const), ...toRemove.map((p) => [p, 'remove'] as const)].sort(([a], [b]) => (a < b ? -1 : 1));
    lines.push(...toAdd.filter((p) => !trackedSet.has(p)).sort().map((p) => [p, 'add'] as const));
    for (const [p, what] of lines) ctx.print(`${what} '${quotePath(showPath(ctx, p))}'\n`);
  }
  if (!o.has('dry-run')) {
    const stats = new Map(wt.untrackedStats);
    for (const f of wt.files.values()) stats.set(f.path, f.st);
    await updateIndex(ctx, toAdd, toRemove, stats);
  }
  if (ignored.length) {
    ctx.err(`The following paths are ignored by one of your .gitignore files:\n${ignored.map((p) => showPath(ctx, p)).join('\n')}\n`);
    ctx.hint(['Use -f if you really want to add them.', 'Turn this message off by running', '"git config advice.addIgnoredFile false"']);
    return 1;
  }
  return 0;
}

/** Every file under a directory (or the file itself), top-relative. */
function listFiles(ctx: Ctx, top: string, path: string): string[] {
  const st = ctx.sys.lstat(`${top}/${path}`);
  if ((st.mode & 0o170000) !== 0o040000) return [path];
  return ctx.sys
    .readdir(`${top}/${path}`)
    .filter((e) => e.name !== '.' && e.name !== '..')
    .flatMap((e) => listFiles(ctx, top, `${path}/${e.name}`));
}
