// git status [-s | --short] [--porcelain[=v1]] [-b | --branch] [--long]
//            [-u[<mode>] | --untracked-files[=<mode>]] [--ignored] [-z] [--] [<pathspec>...]
//
// Long format with git's sections and hints, the short format, and
// porcelain v1 (paths from the top).

import type { FileChange } from '../core/changes.js';
import type { Ctx } from '../core/ctx.js';
import type { IndexEntry } from '../core/index-file.js';
import { Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { pathspec, showPath } from '../core/pathspec.js';
import { quotePath } from '../core/quote.js';
import { loadState, type State } from '../core/state.js';
import { detachedLine } from '../core/reflog.js';
import { readWtState, stateSections, type WtState } from '../core/wtstate.js';
import { tracking, trackingBrief, trackingLines } from '../core/tracking.js';
import type { Untracked } from '../core/worktree.js';

const USAGE = `usage: git status [<options>] [--] <pathspec>...

    -v, --verbose         be verbose
    -s, --short           show status concisely
    -b, --branch          show branch information
    --porcelain[=<version>]
                          machine-readable output
    --long                show status in long format (default)
    -z, --null            terminate entries with NUL
    -u, --untracked-files[=<mode>]
                          show untracked files, optional modes: all, normal, no. (Default: all)
    --ignored[=<mode>]    show ignored files, optional modes: traditional, matching, no. (Default: traditional)
`;

const LABELS: Record<string, string> = { A: 'new file:', D: 'deleted:', M: 'modified:', R: 'renamed:', T: 'typechange:' };

/** How an unmerged path's stages read: [short code, long label]. */
export function unmergedKind(stages: IndexEntry[]): [string, string] {
  const has = (n: number) => stages.some((e) => e.stage === n);
  const key = `${has(1) ? 1 : ''}${has(2) ? 2 : ''}${has(3) ? 3 : ''}`;
  const map: Record<string, [string, string]> = {
    '123': ['UU', 'both modified:'],
    '23': ['AA', 'both added:'],
    '1': ['DD', 'both deleted:'],
    '2': ['AU', 'added by us:'],
    '3': ['UA', 'added by them:'],
    '13': ['DU', 'deleted by us:'],
    '12': ['UD', 'deleted by them:'],
  };
  return map[key] ?? ['UU', 'both modified:'];
}

export interface StatusView {
  state: State;
  branchLine: string;
  trackingText: string[];
  brief: string;
  /** What is in progress (merge, rebase, cherry-pick, revert, bisect). */
  progress: WtState;
  /** The sections about it. */
  progressText: string;
  initial: boolean;
  showUntracked: boolean;
}

export async function statusView(ctx: Ctx, store: Store, state: State, showUntracked = true): Promise<StatusView> {
  const head = state.head;
  const branch = head.ref?.replace(/^refs\/heads\//, '') ?? null;
  const progress = await readWtState(ctx);
  const rebase = progress.rebase;
  const branchLine =
    branch !== null ? `On branch ${branch}` : rebase ? `${rebase.interactive ? 'interactive rebase' : 'rebase'} in progress; onto ${rebase.onto}` : await detachedLine(ctx, store, head.oid);
  let trackingText: string[] = [];
  let brief = '';
  if (branch !== null && head.oid) {
    const t = await tracking(ctx, store, branch, head.oid);
    if (t) {
      trackingText = trackingLines(t);
      brief = `...${t.name}${trackingBrief(t)}`;
    }
  }
  const progressText = await stateSections(ctx, progress, state.unmerged.size > 0);
  return { state, branchLine, trackingText, brief, progress, progressText, initial: head.oid === null, showUntracked };
}

/** The long format; `commitTemplate` words the initial-commit line as commit does. */
export function longStatus(ctx: Ctx, v: StatusView, commitTemplate = false): string {
  const s = v.state;
  const q = (p: string) => quotePath(showPath(ctx, p), ctx.configBool('core.quotePath', true));
  let out = `${v.branchLine}\n`;
  if (v.trackingText.length) out += v.trackingText.join('\n') + '\n\n';
  out += v.progressText;
  // the unstage hints only when a commit now would be an ordinary one
  const unstageHint = v.progress.whence !== 'commit' ? '' : v.initial ? '  (use "git rm --cached <file>..." to unstage)\n' : '  (use "git restore --staged <file>..." to unstage)\n';
  if (v.initial) out += `\n${commitTemplate ? 'Initial commit' : 'No commits yet'}\n\n`;
  if (s.staged.length) {
    out += 'Changes to be committed:\n';
    out += unstageHint;
    for (const c of s.staged) out += `\t${LABELS[c.status].padEnd(12)}${c.status === 'R' ? `${q(c.oldPath)} -> ${q(c.newPath)}` : q(c.newPath)}\n`;
    out += '\n';
  }
  if (s.unmerged.size) {
    const kinds = [...s.unmerged.values()].map((st) => st.map((e) => e.stage).sort().join(''));
    const bothDeleted = kinds.includes('1');
    const delMod = kinds.some((k) => k === '12' || k === '13');
    const other = kinds.some((k) => k !== '1' && k !== '12' && k !== '13');
    const how = !bothDeleted && !delMod ? '"git add <file>..." to mark resolution' : bothDeleted && !delMod && !other ? '"git rm <file>..." to mark resolution' : '"git add/rm <file>..." as appropriate to mark resolution';
    out += `Unmerged paths:\n${unstageHint}  (use ${how})\n`;
    for (const [p, stages] of [...s.unmerged].sort(([a], [b]) => (a < b ? -1 : 1))) out += `\t${unmergedKind(stages)[1].padEnd(17)}${q(p)}\n`;
    out += '\n';
  }
  if (s.unstaged.length) {
    const rm = s.unstaged.some((c) => c.status === 'D');
    out += `Changes not staged for commit:\n  (use "git ${rm ? 'add/rm' : 'add'} <file>..." to update what will be committed)\n  (use "git restore <file>..." to discard changes in working directory)\n`;
    for (const c of s.unstaged) out += `\t${LABELS[c.status].padEnd(12)}${q(c.newPath)}\n`;
    out += '\n';
  }
  if (!v.showUntracked) {
    if (s.staged.length) out += 'Untracked files not listed (use -u option to show untracked files)\n';
  } else if (s.wt.untracked.length) {
    out += 'Untracked files:\n  (use "git add <file>..." to include in what will be committed)\n';
    for (const p of s.wt.untracked) out += `\t${q(p)}\n`;
    out += '\n';
  }
  if (s.wt.ignoredPaths.length) {
    out += 'Ignored files:\n  (use "git add -f <file>..." to include in what will be committed)\n';
    for (const p of s.wt.ignoredPaths) out += `\t${q(p)}\n`;
    out += '\n';
  }
  const committable = s.staged.length > 0 || (v.progress.merge && !s.unmerged.size);
  if (!committable) {
    if (s.unstaged.length || s.unmerged.size) out += 'no changes added to commit (use "git add" and/or "git commit -a")\n';
    else if (s.wt.untracked.length) out += 'nothing added to commit but untracked files present (use "git add" to track)\n';
    else if (v.initial) out += 'nothing to commit (create/copy files and use "git add" to track)\n';
    else if (!v.showUntracked) out += 'nothing to commit (use -u to show untracked files)\n';
    else out += 'nothing to commit, working tree clean\n';
  }
  return out;
}

/** Short/porcelain entries (XY path), sorted by path as git does. */
function shortEntries(ctx: Ctx, s: State, porcelain: boolean, z: boolean): string[] {
  const entries = new Map<string, { x: string; y: string; from?: string }>();
  const get = (p: string) => entries.get(p) ?? { x: ' ', y: ' ' };
  const put = (c: FileChange, side: 'x' | 'y') => {
    const e = get(c.newPath);
    e[side] = c.status;
    if (c.status === 'R') e.from = c.oldPath;
    entries.set(c.newPath, e);
  };
  for (const c of s.staged) put(c, 'x');
  for (const c of s.unstaged) put(c, 'y');
  const show = (p: string) => (z ? (porcelain ? p : showPath(ctx, p)) : quotePath(porcelain ? p : showPath(ctx, p), ctx.configBool('core.quotePath', true), true));
  const lines: [string, string][] = [];
  for (const [p, e] of entries) lines.push([p, z ? `${e.x}${e.y} ${show(p)}${e.from !== undefined ? `\0${show(e.from)}` : ''}` : `${e.x}${e.y} ${e.from !== undefined ? `${show(e.from)} -> ` : ''}${show(p)}`]);
  for (const [p, stages] of s.unmerged) lines.push([p, `${unmergedKind(stages)[0]} ${show(p)}`]);
  lines.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const out = lines.map(([, l]) => l);
  for (const p of s.wt.untracked) out.push(`?? ${show(p)}`);
  for (const p of s.wt.ignoredPaths) out.push(`!! ${show(p)}`);
  return out;
}

export async function status(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    { 's|short': 'bool', 'b|branch': 'bool', '|porcelain': 'opt', '|long': 'bool', 'u|untracked-files': 'opt', '|ignored': 'opt', 'z|null': 'bool', 'v|verbose': 'count', '|show-stash': 'bool', '|ahead-behind': 'bool', '|renames': 'bool', '|column': 'opt' },
    USAGE,
  );
  ctx.worktree();
  const porcelain = o.given('porcelain');
  const pv = o.get('porcelain');
  if (porcelain && pv !== undefined && pv !== 'v1' && pv !== '1') ctx.fatal(`unsupported porcelain version '${pv}'`);
  const short = o.has('short') || porcelain || (o.has('null') && !o.has('long'));
  const um = o.given('untracked-files') ? (o.get('untracked-files') ?? 'all') : (ctx.config('status.showUntrackedFiles') ?? 'normal');
  if (!['no', 'normal', 'all'].includes(um)) ctx.fatal(`Invalid untracked files mode '${um}'`);
  const ps = o.operands.length ? pathspec(ctx, o.operands) : null;
  const store = new Store(ctx);
  const state = await loadState(ctx, store, { untracked: um as Untracked, ignored: o.has('ignored') }, ps ? (p) => ps.match(p) : undefined);
  if (ps) {
    state.wt.untracked.splice(0, state.wt.untracked.length, ...state.wt.untracked.filter((p) => ps.match(p.replace(/\/$/, '')) || ps.items.some((i) => i.path.startsWith(p))));
    state.wt.ignoredPaths.splice(0, state.wt.ignoredPaths.length, ...state.wt.ignoredPaths.filter((p) => ps.match(p.replace(/\/$/, ''))));
  }
  const view = await statusView(ctx, store, state, um !== 'no');
  if (!short) {
    ctx.print(longStatus(ctx, view));
    return 0;
  }
  const z = o.has('null');
  const term = z ? '\0' : '\n';
  if (o.has('branch')) {
    const h = state.head;
    const name = h.ref?.replace(/^refs\/heads\//, '');
    const line = name === undefined ? '## HEAD (no branch)' : h.oid === null ? `## No commits yet on ${name}` : `## ${name}${view.brief}`;
    ctx.print(line + term);
  }
  for (const l of shortEntries(ctx, state, porcelain, z)) ctx.print(l + term);
  return 0;
}
