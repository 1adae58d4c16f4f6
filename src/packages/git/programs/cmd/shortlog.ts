// git shortlog [-n] [-s] [-e] [-c] [--group=<what>] [-w[<width>[,<indent1>[,<indent2>]]]]
//              [--format=<format>] [<revision-range>] [[--] <path>...]
//
// Summarize history by author (or committer): each one's commit subjects,
// oldest first, or just the counts. Reads `git log` output from a
// non-terminal stdin when no revision is given, as git does.

import type { Ctx } from '../core/ctx.js';
import { subjectOf } from '../core/message.js';
import { Store, type Commit } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { expandFormat, parsePretty } from '../core/pretty.js';
import { LOG_SPEC, prettyContext, walkFromOptions } from './log.js';

const USAGE = `usage: git shortlog [<options>] [<revision-range>] [[--] <path>...]
   or: git log --pretty=short | git shortlog [<options>]

    -c, --committer       group by committer rather than author
    -n, --numbered        sort output according to the number of commits per author
    -s, --summary         suppress commit descriptions, only provides commit count
    -e, --email           show the email address of each author
    -w[<w>[,<i1>[,<i2>]]]
                          linewrap output
    --group <field>       group by field

`;

/** git's wrapping of a subject: words greedily to `width` columns, first line indented `i1`, the rest `i2`. */
function wrap(text: string, width: number, i1: number, i2: number): string {
  const words = text.split(/\s+/).filter(Boolean);
  let out = ' '.repeat(i1);
  let col = i1;
  let lineHasWord = false;
  for (const w of words) {
    if (lineHasWord && col + 1 + w.length > width) {
      out += `\n${' '.repeat(i2)}`;
      col = i2;
      lineHasWord = false;
    }
    if (lineHasWord) {
      out += ' ';
      col++;
    }
    out += w;
    col += w.length;
    lineHasWord = true;
  }
  return out + '\n';
}

/** `Author: Name <email>` entries and their subjects from `git log` output. */
function fromStdin(text: string, committer: boolean): { who: string; email: string; subject: string }[] {
  const out: { who: string; email: string; subject: string }[] = [];
  const lines = text.split('\n');
  const key = committer ? /^(?:Commit|committer): (.*?) <([^>]*)>/ : /^(?:Author|author) (.*?) <([^>]*)>|^Author: (.*?) <([^>]*)>/;
  for (let i = 0; i < lines.length; i++) {
    const m = key.exec(lines[i]);
    if (!m) continue;
    const who = m[1] ?? m[3];
    const email = m[2] ?? m[4];
    // the subject: the first non-blank line after the header's blank line
    let j = i + 1;
    while (j < lines.length && lines[j].trim() !== '') j++;
    while (j < lines.length && lines[j].trim() === '') j++;
    out.push({ who, email, subject: j < lines.length ? lines[j].trim() : '' });
    i = j;
  }
  return out;
}

export async function shortlog(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, { ...LOG_SPEC, 'c|committer': 'bool', 'n|numbered': 'bool', 's|summary': 'bool', 'e|email': 'bool', w: 'opt', '|group': 'str' } as never, USAGE);
  const groups = o.all('group');
  const byCommitter = o.has('committer') || groups.includes('committer');
  for (const g of groups) if (g !== 'author' && g !== 'committer') ctx.fatal(`unknown group type: ${g}`);
  const entries: { who: string; email: string; subject: string }[] = [];
  const store = ctx.findRepo() ? new Store(ctx) : null;
  const wantsRevs = o.operands.length > 0 || ['all', 'branches', 'tags', 'remotes'].some((k) => o.has(k));
  if (!wantsRevs && !ctx.sys.isatty(0)) entries.push(...fromStdin(new TextDecoder().decode(ctx.sys.readAll(0)), byCommitter));
  else {
    ctx.repo();
    const { commits } = await walkFromOptions(ctx, store!, o);
    const fmt = o.get('format') ?? o.get('pretty');
    const pretty = fmt !== undefined ? parsePretty(fmt, true) : null;
    const pc = pretty ? await prettyContext(ctx, store!, o, pretty, false) : null;
    const line = (c: Commit) => (pretty && pc ? expandFormat(pretty.format, c, pc) : subjectOf(c.message));
    for (const c of commits) {
      const id = byCommitter ? c.committer : c.author;
      entries.push({ who: id.name, email: id.email, subject: line(c) });
    }
  }
  const by = new Map<string, string[]>();
  for (const e of entries) {
    const key = o.has('email') ? `${e.who} <${e.email}>` : e.who;
    const list = by.get(key) ?? [];
    list.push(e.subject);
    by.set(key, list);
  }
  let keys = [...by.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (o.has('numbered')) keys = keys.sort((a, b) => by.get(b)!.length - by.get(a)!.length);
  const w = o.given('w') ? (o.get('w') ?? '76,6,9').split(',').map(Number) : null;
  const [width, i1, i2] = w ? [w[0] || 76, w[1] ?? 6, w[2] ?? 9] : [0, 6, 9];
  for (const k of keys) {
    const list = by.get(k)!;
    if (o.has('summary')) {
      ctx.print(`${String(list.length).padStart(6)}\t${k}\n`);
      continue;
    }
    ctx.print(`${k} (${list.length}):\n`);
    // newest was recorded first; git lists them the other way round
    for (const s of [...list].reverse()) ctx.print(w ? wrap(s, width, i1, i2) : `${' '.repeat(6)}${s}\n`);
    ctx.print('\n');
  }
  return 0;
}
