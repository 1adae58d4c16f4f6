// git grep [-v] [-i] [-w] [-E | -F | -G | -P] [-n] [--column] [-h | -H] [--full-name]
//          [-l | -L | -c | -o | -q] [-z] [--heading] [--break] [-A | -B | -C <n>] [-m <n>]
//          [-a | -I] [--max-depth <n>] [--all-match] [-f <file>]
//          [--cached | --untracked | --no-index] [-e] <pattern> [--and | --or | --not | ( | )]...
//          [<tree>...] [[--] <pathspec>...]
//
// Search the tracked files of the work tree (or the index, or trees) for
// lines matching POSIX regular expressions combined as git combines them.

import { SysError } from '../../../../abi/errno.js';
import { S_IFMT, S_IFREG } from '../../../../abi/stat.js';
import { compile, Matcher } from '../../../../userland/lib/regex/match.js';
import { RegexError } from '../../../../userland/lib/regex/regex.js';
import type { Ctx } from '../core/ctx.js';
import { GitExit } from '../core/errors.js';
import { Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { normalize, relative } from '../core/path.js';
import { pathspec, type Pathspec } from '../core/pathspec.js';
import { quotePath } from '../core/quote.js';
import { AmbiguousOid, resolveTree } from '../core/revs.js';
import { Worktree } from '../core/worktree.js';

const USAGE = `usage: git grep [<options>] [-e] <pattern> [<rev>...] [[--] <path>...]

    --cached              search in index instead of in the work tree
    --no-index            find in contents not managed by git
    --untracked           search in both tracked and untracked files
    --exclude-standard    ignore files specified via '.gitignore'
    --recurse-submodules  recursively search in each submodule

    -v, --invert-match    show non-matching lines
    -i, --ignore-case     case insensitive matching
    -w, --word-regexp     match patterns only at word boundaries
    -a, --text            process binary files as text
    -I                    don't match patterns in binary files
    --textconv            process binary files with textconv filters
    -r, --recursive       search in subdirectories (default)
    --max-depth <depth>   descend at most <depth> levels

    -E, --extended-regexp
                          use extended POSIX regular expressions
    -G, --basic-regexp    use basic POSIX regular expressions (default)
    -F, --fixed-strings   interpret patterns as fixed strings
    -P, --perl-regexp     use Perl-compatible regular expressions

    -n, --line-number     show line numbers
    --column              show column number of first match
    -h                    don't show filenames
    -H                    show filenames
    --full-name           show filenames relative to top directory
    -l, --files-with-matches
                          show only filenames instead of matching lines
    --name-only           synonym for --files-with-matches
    -L, --files-without-match
                          show only the names of files without match
    -z, --null            print NUL after filenames
    -o, --only-matching   show only matching parts of a line
    -c, --count           show the number of matches instead of matching lines
    --color[=<when>]      highlight matches
    --break               print empty line between matches from different files
    --heading             show filename only once above matches from same file

    -C, --context <n>     show <n> context lines before and after matches
    -B, --before-context <n>
                          show <n> context lines before matches
    -A, --after-context <n>
                          show <n> context lines after matches
    --threads <n>         use <n> worker threads
    -NUM                  shortcut for -C NUM
    -p, --show-function   show a line with the function name before matches
    -W, --function-context
                          show the surrounding function

    -f <file>             read patterns from file
    -e <pattern>          match <pattern>
    --and                 combine patterns specified with -e
    --or                  
    --not                 
    (                     
    )                     
    -q, --quiet           indicate hit with exit status without output
    --all-match           show only matches from files that match all patterns

    -O, --open-files-in-pager[=<pager>]
                          show matching files in the pager
    --ext-grep            allow calling of grep(1) (ignored by this build)
    -m, --max-count <n>   maximum number of results per file

`;

/** A pattern expression: atoms (one pattern each) combined with --and, --or, --not and parentheses. */
type Expr = { k: 'atom'; m: Matcher; i: number } | { k: 'not'; e: Expr } | { k: 'and' | 'or'; a: Expr; b: Expr };

const latin1 = (b: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return s;
};
const enc = new TextEncoder();
const toLatin1 = (s: string) => latin1(enc.encode(s));

/** git's grammar: or := and ['--or'] or; and := not ['--and' and]; not := '--not' not | '(' or ')' | pattern. */
function parseExpr(ctx: Ctx, tokens: (string | Matcher)[]): Expr {
  let pos = 0;
  let n = 0;
  const atom = (): Expr => {
    const t = tokens[pos];
    if (t === undefined) ctx.fatal('incomplete pattern expression');
    if (t === '--not') {
      pos++;
      return { k: 'not', e: atom() };
    }
    if (t === '(') {
      pos++;
      const e = or();
      if (tokens[pos] !== ')') ctx.fatal('unmatched parenthesis');
      pos++;
      return e;
    }
    if (typeof t === 'string') ctx.fatal(`not a pattern expression ${t}`);
    pos++;
    return { k: 'atom', m: t, i: n++ };
  };
  const and = (): Expr => {
    const a = atom();
    if (tokens[pos] === '--and') {
      pos++;
      return { k: 'and', a, b: and() };
    }
    return a;
  };
  const or = (): Expr => {
    const a = and();
    const t = tokens[pos];
    if (t === undefined || t === ')') return a;
    if (t === '--or') pos++;
    return { k: 'or', a, b: or() };
  };
  const e = or();
  if (pos < tokens.length) ctx.fatal('incomplete pattern expression');
  return e;
}

function evalExpr(e: Expr, line: string, hits: Set<number> | null): boolean {
  switch (e.k) {
    case 'atom': {
      const ok = e.m.test(line);
      if (ok && hits) hits.add(e.i);
      return ok;
    }
    case 'not':
      return !evalExpr(e.e, line, null);
    case 'and':
      return evalExpr(e.a, line, hits) && evalExpr(e.b, line, hits);
    case 'or': {
      // both sides are looked at, so --all-match sees every pattern a line matches
      const a = evalExpr(e.a, line, hits);
      const b = evalExpr(e.b, line, hits);
      return a || b;
    }
  }
}

/** The top-level alternatives (for --all-match): each must match somewhere in the file. */
function topAtoms(e: Expr): Expr[] {
  return e.k === 'or' ? [...topAtoms(e.a), ...topAtoms(e.b)] : [e];
}

/** The patterns that are not negated (what -o prints and --column measures). */
function positives(e: Expr, neg = false): Matcher[] {
  if (e.k === 'atom') return neg ? [] : [e.m];
  if (e.k === 'not') return positives(e.e, !neg);
  return [...positives(e.a, neg), ...positives(e.b, neg)];
}

interface Source {
  /** As printed (already relative, with any `rev:` prefix). */
  name: string;
  load: () => Promise<Uint8Array | null>;
}

export async function grep(ctx: Ctx, args: string[]): Promise<number> {
  // -e, -f and the expression operators stay in order: take them out before the option parser
  const tokens: (string | { pattern: string })[] = [];
  const rest: string[] = [];
  const readFile = (f: string) => {
    const text = f === '-' ? new TextDecoder().decode(ctx.sys.readAll(0)) : ctx.readText(ctx.abs(f));
    if (text === null) ctx.fatal(`cannot open '${f}': No such file or directory`);
    return text.split('\n').filter((l, i, a) => i < a.length - 1 || l !== '');
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      rest.push(...args.slice(i));
      break;
    }
    if (a === '-e' || a === '--regexp') tokens.push({ pattern: args[++i] ?? ctx.fatal(`switch \`e' requires a value`, 129) });
    else if (a.startsWith('-e') && a.length > 2) tokens.push({ pattern: a.slice(2) });
    else if (a.startsWith('--regexp=')) tokens.push({ pattern: a.slice(9) });
    else if (a === '-f') for (const p of readFile(args[++i] ?? ctx.fatal(`switch \`f' requires a value`, 129))) tokens.push({ pattern: p });
    else if (a === '--and' || a === '--or' || a === '--not' || a === '(' || a === ')') tokens.push(a);
    else rest.push(a);
  }
  const o = parseOptions(
    rest,
    {
      '|cached': 'bool', '|no-index': 'bool', '|index': 'bool', '|untracked': 'bool', '|exclude-standard': 'bool', '|recurse-submodules': 'bool',
      'v|invert-match': 'bool', 'i|ignore-case': 'bool', 'y': 'bool', 'w|word-regexp': 'bool', 'a|text': 'bool', I: 'bool', '|textconv': 'bool', 'r|recursive': 'bool',
      '|max-depth': 'str', 'E|extended-regexp': 'bool', 'G|basic-regexp': 'bool', 'F|fixed-strings': 'bool', 'P|perl-regexp': 'bool', 'n|line-number': 'bool',
      '|column': 'bool', h: 'bool', H: 'bool', '|full-name': 'bool', 'l|files-with-matches': 'bool', '|name-only': 'bool', 'L|files-without-match': 'bool',
      'z|null': 'bool', 'o|only-matching': 'bool', 'c|count': 'bool', '|color': 'opt', '|no-color': 'bool', '|break': 'bool', '|heading': 'bool',
      'C|context': 'str', 'B|before-context': 'str', 'A|after-context': 'str', '|threads': 'str', 'p|show-function': 'bool', 'W|function-context': 'bool',
      'q|quiet': 'bool', '|all-match': 'bool', 'O|open-files-in-pager': 'opt', '|ext-grep': 'bool', 'm|max-count': 'str',
    },
    USAGE,
    { numbers: 'context' },
  );
  if (o.has('show-function') || o.has('function-context')) ctx.fatal('--show-function and --function-context are not supported by agentOS git');
  const operands = [...o.operands];
  const dashdash = o.dashdash;
  // the first operand is the pattern when no -e was given
  if (!tokens.some((t) => typeof t !== 'string')) {
    if (operands.length === 0 || (dashdash === 0)) ctx.fatal('no pattern given');
    tokens.push({ pattern: operands.shift()! });
  }
  const beforeDD = dashdash < 0 ? operands : operands.slice(0, dashdash - (o.operands.length - operands.length));
  const afterDD = dashdash < 0 ? [] : operands.slice(beforeDD.length);

  const syntax = o.has('fixed-strings') ? 'fixed' : o.has('extended-regexp') ? 'ere' : 'bre';
  const mopts = { syntax, ignoreCase: o.has('ignore-case') || o.has('y'), word: o.has('word-regexp'), line: false, utf8: false } as const;
  // Lines are byte strings here (utf8: false). -P: Perl-compatible patterns are (nearly) JavaScript's own
  const matcher = (p: string) => (o.has('perl-regexp') ? new Matcher({ branches: [toLatin1(p)] }, mopts, false) : compile([toLatin1(p)], mopts).matcher);
  let expr: Expr;
  try {
    expr = parseExpr(ctx, tokens.map((t) => (typeof t === 'string' ? t : matcher(t.pattern))));
  } catch (e) {
    if (e instanceof SyntaxError) ctx.fatal(`${e.message}`);
    if (e instanceof RegexError) ctx.fatal(`command line, '${(tokens.find((t) => typeof t !== 'string') as { pattern: string }).pattern}': ${e.message}`);
    throw e;
  }
  const pos = positives(expr);
  const invert = o.has('invert-match');

  // what to search
  const noIndex = o.has('no-index') || !ctx.findRepo();
  const sources: Source[] = [];
  const store = noIndex ? null : new Store(ctx);
  const trees: { name: string; oid: string }[] = [];
  let paths: string[] = afterDD;
  if (!noIndex) {
    for (let i = 0; i < beforeDD.length; i++) {
      const a = beforeDD[i];
      let oid: string | null = null;
      try {
        oid = await resolveTree(ctx, store!, a);
      } catch (e) {
        if (!(e instanceof AmbiguousOid)) throw e;
      }
      if (oid) {
        trees.push({ name: a, oid });
        continue;
      }
      if (dashdash >= 0) ctx.fatal(`unable to resolve revision: ${a}`);
      for (const p of beforeDD.slice(i)) {
        if (!ctx.exists(ctx.abs(p)) && !/[*?[]/.test(p) && !p.startsWith(':')) {
          ctx.fatal(`ambiguous argument '${p}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`);
        }
      }
      paths = [...beforeDD.slice(i), ...paths];
      break;
    }
  } else paths = [...beforeDD, ...paths];
  if (trees.length && (o.has('cached') || o.has('untracked'))) ctx.fatal(o.has('cached') ? '--cached cannot be used with revisions' : '--untracked cannot be used with revisions');

  const repo = noIndex ? null : ctx.repo();
  const top = repo?.dir ?? ctx.cwd;
  const prefix = repo ? repo.prefix : '';
  const fullName = o.has('full-name');
  const ps: Pathspec | null = repo?.dir ? pathspec(ctx, paths.length ? paths : prefix ? ['.'] : []) : null;
  const maxDepth = o.get('max-depth') !== undefined ? Number(o.get('max-depth')) : -1;
  const depthOk = (p: string) => {
    if (maxDepth < 0) return true;
    // depth counted below the pathspec item the path falls under (or the current directory)
    const base = ps?.items.find((i) => !i.exclude && (i.path === '' || p === i.path || p.startsWith(`${i.path}/`)))?.path ?? prefix.replace(/\/$/, '');
    const restPath = base === '' ? p : p.slice(base.length + 1);
    return restPath.split('/').length - 1 <= maxDepth;
  };
  const shown = (p: string) => (fullName ? p : relative(`${top}/${prefix}`.replace(/\/+$/, '') || '/', normalize(`${top}/${p}`)));
  const want = (p: string) => (!ps || ps.match(p)) && depthOk(p);

  const readWork = (abs: string): Uint8Array | null => {
    try {
      if ((ctx.sys.lstat(abs).mode & S_IFMT) !== S_IFREG) return null;
      return ctx.sys.readFile(abs);
    } catch (e) {
      if (e instanceof SysError) return null;
      throw e;
    }
  };
  if (noIndex) {
    // every file under the current directory (or the paths given)
    const walkDir = (dir: string, rel: string) => {
      for (const e of ctx.sys.readdir(dir).filter((x) => x.name !== '.' && x.name !== '..').sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (e.name === '.git') continue;
        const r = rel ? `${rel}/${e.name}` : e.name;
        const abs = `${dir}/${e.name}`;
        const st = ctx.sys.lstat(abs);
        if ((st.mode & S_IFMT) === 0o040000) walkDir(abs, r);
        else sources.push({ name: r, load: async () => readWork(abs) });
      }
    };
    const roots = paths.length ? paths : ['.'];
    for (const r of roots) {
      const abs = ctx.abs(r);
      try {
        if ((ctx.sys.lstat(abs).mode & S_IFMT) === 0o040000) walkDir(abs, r === '.' ? '' : r.replace(/\/$/, ''));
        else sources.push({ name: r, load: async () => readWork(abs) });
      } catch (e) {
        if (!(e instanceof SysError)) throw e;
      }
    }
  } else if (trees.length) {
    for (const t of trees) {
      const flat = await store!.flatTree(t.oid);
      for (const [p, item] of [...flat].sort(([a], [b]) => (a < b ? -1 : 1))) {
        if (item.mode === 0o160000) continue;
        // a tree named with a path (`HEAD:src`) is searched as its own top
        if (t.name.includes(':')) {
          if (maxDepth < 0 || p.split('/').length - 1 <= maxDepth) sources.push({ name: `${t.name}:${p}`, load: () => store!.blob(item.oid) });
          continue;
        }
        if (!want(p)) continue;
        sources.push({ name: `${t.name}:${shown(p)}`, load: () => store!.blob(item.oid) });
      }
    }
  } else {
    const idx = ctx.readIndex();
    const seen = new Set<string>();
    for (const e of idx.entries) {
      if (seen.has(e.path) || e.mode === 0o160000 || !want(e.path)) continue;
      seen.add(e.path);
      if (o.has('cached')) {
        if (e.stage !== 0) continue;
        sources.push({ name: shown(e.path), load: () => store!.blob(e.oid) });
      } else sources.push({ name: shown(e.path), load: async () => readWork(`${top}/${e.path}`) });
    }
    if (o.has('untracked') && repo?.dir) {
      const wt = new Worktree(ctx, repo.dir, idx).scan({ untracked: 'all' });
      for (const p of wt.untracked) if (want(p)) sources.push({ name: shown(p), load: async () => readWork(`${top}/${p}`) });
      sources.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
  }

  // the search
  const after = Number(o.get('after-context') ?? o.get('context') ?? 0);
  const before = Number(o.get('before-context') ?? o.get('context') ?? 0);
  const maxCount = o.get('max-count') !== undefined ? Number(o.get('max-count')) : -1;
  const withName = o.has('H') || !o.has('h');
  const z = o.has('null');
  const nameSep = (ch: string) => (z ? '\0' : ch);
  const q = (n: string) => (z ? n : quotePath(n, ctx.configBool('core.quotePath', true)));
  const quiet = o.has('quiet');
  const listMatch = o.has('files-with-matches') || o.has('name-only');
  const listMiss = o.has('files-without-match');
  const count = o.has('count');
  const heading = o.has('heading');
  const atoms = topAtoms(expr);
  let any = false;
  let printedFile = false;
  let lastPrintedGroupEnd = -2;
  for (const src of sources) {
    const data = await src.load();
    if (data === null) continue;
    const binary = !o.has('text') && data.subarray(0, 8000).includes(0);
    if (binary && o.has('I')) continue;
    const text = latin1(data);
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const hits = new Set<number>();
    const matched: number[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (evalExpr(expr, lines[i], hits) !== invert) {
        matched.push(i);
        if (maxCount >= 0 && matched.length >= maxCount) break;
      }
    }
    const fileMatches = matched.length > 0 && (!o.has('all-match') || atoms.every((a) => a.k !== 'atom' || hits.has(a.i)));
    if (!fileMatches) {
      if (listMiss && !quiet) ctx.print(q(src.name) + (z ? '\0' : '\n'));
      continue;
    }
    any = true;
    if (quiet) break;
    if (listMiss) continue;
    if (listMatch) {
      ctx.print(q(src.name) + (z ? '\0' : '\n'));
      continue;
    }
    if (count) {
      ctx.print(`${q(src.name)}${nameSep(':')}${matched.length}\n`);
      continue;
    }
    if (binary) {
      ctx.print(`Binary file ${q(src.name)} matches\n`);
      continue;
    }
    if (o.has('break') && printedFile) ctx.print('\n');
    if (heading && withName) ctx.print(`${q(src.name)}\n`);
    printedFile = true;
    const prefixOf = (i: number, sep: string, col?: number) => {
      let s = '';
      if (withName && !heading) s += q(src.name) + nameSep(sep);
      if (o.has('line-number')) s += `${i + 1}${sep}`;
      if (col !== undefined) s += `${col}${sep}`;
      return s;
    };
    const write = (s: string) => ctx.out.write(Uint8Array.from(s, (c) => c.charCodeAt(0)));
    // context: groups of lines, "--" between groups that do not touch
    const show = new Map<number, boolean>();
    for (const i of matched) {
      for (let k = Math.max(0, i - before); k <= Math.min(lines.length - 1, i + after); k++) if (!show.has(k)) show.set(k, false);
      show.set(i, true);
    }
    const order = [...show.keys()].sort((a, b) => a - b);
    let prev = -2;
    for (const i of order) {
      const isMatch = show.get(i)!;
      if ((before || after) && prev >= 0 && i > prev + 1) write('--\n');
      else if ((before || after) && prev < 0 && lastPrintedGroupEnd !== -2) write('--\n');
      prev = i;
      const line = lines[i];
      if (!isMatch) {
        write(`${prefixOf(i, '-')}${line}\n`);
        continue;
      }
      if (o.has('only-matching') && !invert) {
        for (const m of pos) for (const [s, e] of m.matches(line)) write(`${prefixOf(i, ':', o.has('column') ? s + 1 : undefined)}${line.slice(s, e)}\n`);
        continue;
      }
      let col: number | undefined;
      if (o.has('column')) {
        const starts = pos.flatMap((m) => m.matches(line).map(([s]) => s));
        col = invert || !starts.length ? 1 : Math.min(...starts) + 1;
      }
      write(`${prefixOf(i, ':', col)}${line}\n`);
    }
    lastPrintedGroupEnd = prev;
  }
  if (!any) throw new GitExit(1);
  return 0;
}
