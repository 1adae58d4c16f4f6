// The diff options diff, log and show share, and printing a list of
// changes in the requested formats, in git's order: name/status lists,
// numstat/stat/shortstat, summary, then (after a blank line) the patch.

import type { FileChange } from '../core/changes.js';
import type { Ctx } from '../core/ctx.js';
import type { Options, Spec } from '../core/opts.js';
import { diffAll } from './engine.js';
import { nameOnlyOf, nameStatusOf, numstatOf, patchOf, shortstatOf, splitTypeChanges, statOf, summaryOf, type FileDiff, type FormatOptions, type Loader } from './format.js';

export const DIFF_SPEC: Spec = {
  'p|patch': 'bool', u: 'bool', 's|no-patch': 'bool', '|stat': 'opt', '|shortstat': 'bool', '|numstat': 'bool', '|name-only': 'bool',
  '|name-status': 'bool', '|summary': 'bool', 'U|unified': 'str', 'M|find-renames': 'opt', '|renames': 'bool', '|full-index': 'bool',
  '|abbrev': 'opt', '|no-prefix': 'bool', '|src-prefix': 'str', '|dst-prefix': 'str', '|binary': 'bool', '|color': 'opt', '|no-color': 'bool',
  R: 'bool', '|exit-code': 'bool', '|quiet': 'bool', '|no-ext-diff': 'bool', '|ext-diff': 'bool', '|textconv': 'bool', '|patch-with-stat': 'bool',
  '|indent-heuristic': 'bool', '|minimal': 'bool', '|histogram': 'bool', '|patience': 'bool', '|stat-width': 'str',
};

export interface DiffOptions {
  patch: boolean;
  stat: boolean;
  shortstat: boolean;
  numstat: boolean;
  nameOnly: boolean;
  nameStatus: boolean;
  summary: boolean;
  renames: boolean;
  reverse: boolean;
  exitCode: boolean;
  quiet: boolean;
  fmt: FormatOptions;
}

/** Read the diff options; `patchByDefault` for diff (patch unless another format is asked for). */
export function diffOptions(ctx: Ctx, o: Options, patchByDefault: boolean): DiffOptions {
  const other = ['stat', 'shortstat', 'numstat', 'name-only', 'name-status', 'summary'].some((k) => o.given(k) && o.has(k));
  const patchAsked = o.has('patch') || o.has('u') || o.has('patch-with-stat');
  let patch = patchAsked || (patchByDefault && !other);
  // -s silences every format (git 2.39)
  const silent = o.has('no-patch');
  if (silent) patch = false;
  const unified = o.get('unified');
  const context = unified !== undefined ? Number(unified) : Number(ctx.config('diff.context') ?? 3);
  if (!Number.isInteger(context) || context < 0) ctx.fatal(`invalid --unified value: ${unified}`);
  const noPrefix = o.has('no-prefix') || ctx.configBool('diff.noprefix', false);
  const statArg = o.get('stat');
  const width = o.get('stat-width') ?? (statArg?.split(',')[0] || undefined);
  return {
    patch,
    stat: !silent && (o.has('stat') || o.has('patch-with-stat')),
    shortstat: !silent && o.has('shortstat'),
    numstat: !silent && o.has('numstat'),
    nameOnly: !silent && o.has('name-only'),
    nameStatus: !silent && o.has('name-status'),
    summary: !silent && o.has('summary'),
    renames: o.given('renames') ? o.has('renames') : o.given('find-renames') || ctx.configBool('diff.renames', true),
    reverse: o.has('R'),
    exitCode: o.has('exit-code') || o.has('quiet'),
    quiet: o.has('quiet'),
    fmt: {
      context: patchAsked || patch ? context : 3,
      abbrev: Math.max(4, Number(o.get('abbrev') ?? ctx.config('core.abbrev') ?? 7) || 7),
      quotePath: ctx.configBool('core.quotePath', true),
      srcPrefix: noPrefix ? '' : (o.get('src-prefix') ?? 'a/'),
      dstPrefix: noPrefix ? '' : (o.get('dst-prefix') ?? 'b/'),
      fullIndex: o.has('full-index'),
      statWidth: width ? Number(width) : undefined,
    },
  };
}

/** Whether any output format is on (log prints diffs only then). */
export const wantsDiff = (d: DiffOptions): boolean => d.patch || d.stat || d.shortstat || d.numstat || d.nameOnly || d.nameStatus || d.summary;

/** Print the changes in the requested formats; returns the text (byte-exact bodies are written directly). */
export async function printDiff(ctx: Ctx, changes: FileChange[], load: Loader, d: DiffOptions): Promise<void> {
  if (d.quiet) return;
  let separator = false;
  if (d.nameOnly || d.nameStatus) {
    ctx.print(d.nameOnly ? nameOnlyOf(changes, d.fmt) : nameStatusOf(changes, d.fmt));
    separator = true;
  }
  const cache: { fds: FileDiff[] | null } = { fds: null };
  const all = async () => (cache.fds ??= await diffAll(changes, load));
  if (d.numstat || d.stat || d.shortstat) {
    if (d.numstat) ctx.print(numstatOf(await all(), d.fmt));
    if (d.stat) ctx.print(statOf(await all(), d.fmt));
    if (d.shortstat) ctx.print(shortstatOf(await all()));
    separator = true;
  }
  if (d.summary) {
    const s = summaryOf(changes, d.fmt);
    if (s) {
      ctx.print(s);
      separator = true;
    }
  }
  if (d.patch) {
    if (separator && changes.length) ctx.print('\n');
    const split = splitTypeChanges(changes);
    const byChange = new Map((cache.fds ?? []).map((f) => [f.change, f] as const));
    for (const c of split) {
      const fd = byChange.get(c) ?? (await diffAll([c], load))[0];
      const { header, body } = patchOf(fd, d.fmt);
      ctx.print(header);
      if (body) ctx.out.write(latin1Bytes(body));
    }
  }
}

function latin1Bytes(s: string): Uint8Array {
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return b;
}
