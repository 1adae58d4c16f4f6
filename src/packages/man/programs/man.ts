// man [-k|-f|-w] [SECTION] NAME...   man -l FILE...   (also apropos, whatis)
// Show the manual pages packages ship in share/man/manN/ (found in every
// /opt/agentos/<package>/current, then /usr/local/share/man and
// /usr/share/man, or along $MANPATH), formatted for MANWIDTH or COLUMNS or 80
// columns. On a terminal the page goes through $MANPAGER, $PAGER or less.

import { Errno, SysError } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { isDir } from '../../../abi/stat.js';
import { command, type Cmd } from '../../../userland/lib/index.js';
import { isUtf8Locale } from '../../../userland/lib/locale.js';
import { asciiText, ManFormatter } from './roff.js';
import { showThroughPager } from './pager-pipe.js';

const USAGE = `Usage: man [OPTION...] [SECTION] PAGE...
Show the manual PAGEs installed by packages.

  -f, --whatis               show the one-line description of PAGEs
  -k, --apropos              search the one-line descriptions for a regex
  -l, --local-file           PAGEs are files to format
  -w, --where, --path        print where the pages are, do not show them
  -M, --manpath=PATH         look in PATH (colon-separated) for pages
      --help                 display this help and exit
      --version              output version information and exit

The width is $MANWIDTH, else $COLUMNS, else 80. Exit status 16: no page found.
`;

/** Sections in the order man searches them. */
const ORDER = ['1', 'n', 'l', '8', '3', '0', '2', '5', '4', '9', '6', '7'];
const utf8 = new TextDecoder();

interface Page {
  name: string;
  section: string;
  path: string;
}

/** The directories that hold manN/ subdirectories. */
function manPath(c: Cmd): string[] {
  const env = c.get('M') ?? c.os.env.MANPATH;
  if (env) return env.split(':').filter((d) => d !== '');
  const dirs: string[] = [];
  try {
    for (const e of c.sys.readdir('/opt/agentos').sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.name !== 'bin') dirs.push(`/opt/agentos/${e.name}/current/share/man`);
    }
  } catch {
    // no packages
  }
  return [...dirs, '/usr/local/share/man', '/usr/share/man'];
}

/** Every page in the path: manN/NAME.N[suffix]. */
function allPages(c: Cmd, path: string[]): Page[] {
  const pages: Page[] = [];
  for (const dir of path) {
    let subs: string[];
    try {
      subs = c.sys.readdir(dir).map((e) => e.name).filter((n) => /^man./.test(n)).sort();
    } catch {
      continue;
    }
    for (const sub of subs) {
      let files: string[];
      try {
        files = c.sys.readdir(`${dir}/${sub}`).map((e) => e.name).sort();
      } catch {
        continue;
      }
      for (const f of files) {
        const m = /^(.+)\.([0-9nl][a-z]*)$/.exec(f);
        if (m && m[2].startsWith(sub.slice(3, 4))) pages.push({ name: m[1], section: m[2], path: `${dir}/${sub}/${f}` });
      }
    }
  }
  return pages;
}

/** Pages for NAME, in search order; `section` narrows to one section. */
function find(pages: Page[], name: string, section: string | null): Page[] {
  const rank = (p: Page) => {
    const i = ORDER.indexOf(p.section[0]);
    return i < 0 ? ORDER.length : i;
  };
  return pages
    .filter((p) => p.name === name && (section === null || p.section === section || p.section[0] === section))
    .sort((a, b) => rank(a) - rank(b));
}

/** A page laid out as groff's utf8 device (UTF-8 locale) or ASCII device (otherwise) lays it out. */
function render(c: Cmd, src: string): string {
  const utf8 = isUtf8Locale(c.os.env);
  return new ManFormatter(lineLength(c), utf8).render(utf8 ? src : asciiText(src));
}

/** The page's source, following a lone `.so` to another page. */
function source(c: Cmd, path: string, depth = 0): string {
  const text = utf8.decode(c.sys.readFile(path));
  const so = /^\.so\s+(\S+)\s*$/m.exec(text.split('\n').find((l) => !l.startsWith('.\\"')) ?? '');
  if (!so || depth > 5) return text;
  const root = path.slice(0, path.lastIndexOf('/', path.lastIndexOf('/') - 1));
  return source(c, so[1].startsWith('/') ? so[1] : `${root}/${so[1]}`, depth + 1);
}

/** The NAME section's line, "name \- description" split in two. */
function whatis(c: Cmd, p: Page): { names: string; desc: string } | null {
  const lines = source(c, p.path).split('\n');
  const i = lines.findIndex((l) => /^\.SH\s+"?NAME"?\s*$/i.test(l));
  if (i < 0) return null;
  const body: string[] = [];
  for (const l of lines.slice(i + 1)) {
    if (/^\.(SH|SS)\b/.test(l)) break;
    if (!l.startsWith('.')) body.push(l);
  }
  const m = /^(.*?)\s+\\?-\s+(.*)$/.exec(body.join(' ').replace(/\\f[BIRP]/g, ''));
  return m ? { names: m[1], desc: m[2].replace(/\\-/g, '-').replace(/\\(.)/g, '$1') } : null;
}

function lineLength(c: Cmd): number {
  const n = Number(c.os.env.MANWIDTH || c.os.env.COLUMNS || 80);
  return Number.isFinite(n) && n >= 20 ? Math.floor(n) - 2 : 78;
}

export const man = command(
  {
    name: 'man',
    usage: USAGE,
    short: 'fklwM:',
    long: {
      whatis: ['f', 'none'], apropos: ['k', 'none'], 'local-file': ['l', 'none'], where: ['w', 'none'], path: ['w', 'none'],
      manpath: ['M', 'required'],
    },
  },
  (c) => {
    const invoked = c.os.argv[0].slice(c.os.argv[0].lastIndexOf('/') + 1);
    const mode = invoked === 'apropos' || c.has('k') ? 'k' : invoked === 'whatis' || c.has('f') ? 'f' : c.has('l') ? 'l' : c.has('w') ? 'w' : 'show';
    const names = [...c.operands];
    if (names.length === 0) {
      if (mode === 'k' || mode === 'f') {
        c.warn('what?');
        return 16;
      }
      c.sys.writeAll(2, "What manual page do you want?\nFor example, try 'man man'.\n");
      return 1;
    }
    if (mode === 'l') return showFiles(c, names);
    const pages = allPages(c, manPath(c));
    if (mode === 'k' || mode === 'f') return search(c, pages, names, mode);
    let section: string | null = null;
    if (names.length > 1 && /^([0-9][a-z]*|[nl])$/.test(names[0])) section = names.shift()!;
    let status = 0;
    const texts: string[] = [];
    for (const name of names) {
      const hit = find(pages, name, section)[0];
      if (!hit) {
        c.out.flush();
        c.sys.writeAll(2, `No manual entry for ${name}${section ? ` in section ${section}` : ''}\n`);
        status = 16;
        continue;
      }
      if (mode === 'w') c.out.write(`${hit.path}\n`);
      else texts.push(render(c, source(c, hit.path)));
    }
    if (texts.length) display(c, texts.join(''));
    return status;
  },
);

function showFiles(c: Cmd, files: string[]): number {
  let status = 0;
  const texts: string[] = [];
  for (const f of files) {
    try {
      if (isDir(c.sys.stat(f).mode)) throw new SysError(Errno.EISDIR);
      texts.push(render(c, source(c, f)));
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      c.out.flush();
      c.sys.writeAll(2, `man: ${f}: ${e.errno === Errno.ENOENT ? 'No such file or directory' : e.message}\n`);
      status = 16;
    }
  }
  if (texts.length) display(c, texts.join(''));
  return status;
}

/** -k (regex over names and descriptions) and -f (exact name): "name (N) - description". */
function search(c: Cmd, pages: Page[], terms: string[], mode: 'k' | 'f'): number {
  let status = 0;
  const seen = new Set<string>();
  for (const term of terms) {
    let re: RegExp;
    try {
      re = new RegExp(term, 'i');
    } catch {
      re = new RegExp(term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
    }
    let found = false;
    for (const p of pages) {
      const w = whatis(c, p);
      if (!w) continue;
      const hit = mode === 'f' ? p.name === term : re.test(w.names) || re.test(w.desc);
      const key = `${p.name}.${p.section}`;
      if (!hit || (mode === 'k' && seen.has(key))) continue;
      seen.add(key);
      found = true;
      c.out.write(`${`${p.name} (${p.section})`.padEnd(20)} - ${w.desc}\n`);
    }
    if (!found) {
      c.out.flush();
      c.sys.writeAll(2, `${term}: nothing appropriate.\n`);
      status = 16;
    }
  }
  return status;
}

function display(c: Cmd, text: string): void {
  let tty = false;
  try {
    tty = c.sys.isatty(1);
  } catch {
    // stdout closed
  }
  const pager = c.os.env.MANPAGER || c.os.env.PAGER || 'less';
  if (tty && showThroughPager(c.os, text, pager)) return;
  c.out.write(text);
}

export default function main(os: AgentosApi): void {
  os.exit(man(os, os.argv.slice(1)));
}
