// agentOS man against the host's man (man-db and groff): every page the
// packages ship, shown by `man NAME` in the VM, must equal the host's
// `man -l FILE` byte for byte at several widths. groff hyphenates and agentOS
// man does not (no hyphenation patterns), so the host formats with
// hyphenation off (MANROFFOPT=-rHY=0); LANG=C gives both ASCII. Then man's
// own behaviour: missing pages, sections, -w, -k/apropos, -f/whatis.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { boot, type Machine } from '../../../src/host/node/index.js';
import { ENV } from '../oracle.js';

const PACKAGES = join(process.cwd(), 'src/packages');
let m: Machine | null = null;

before(async () => {
  m = await boot();
});

after(async () => {
  await m?.stop();
});

/** Every man page in the packages, except the .so aliases. */
function shippedPages(): { name: string; file: string }[] {
  const pages: { name: string; file: string }[] = [];
  for (const pkg of readdirSync(PACKAGES).sort()) {
    const dir = join(PACKAGES, pkg, 'share/man/man1');
    let files: string[];
    try {
      files = readdirSync(dir).sort();
    } catch {
      continue;
    }
    for (const f of files) {
      const file = join(dir, f);
      if (!readFileSync(file, 'utf8').startsWith('.so ')) pages.push({ name: f.replace(/\.1$/, ''), file });
    }
  }
  return pages;
}

async function vm(cmd: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const r = await m!.run(['/bin/bash', '-c', cmd], { env: ENV, stdin: '', timeoutMs: 20_000 });
  const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
  return { stdout: text(r.stdout), stderr: text(r.stderr), exitCode: r.exitCode };
}

test('man: the packages ship pages for the common commands', () => {
  const names = shippedPages().map((p) => p.name);
  for (const n of ['ls', 'cat', 'cp', 'mv', 'rm', 'grep', 'sed', 'awk', 'find', 'sort', 'head', 'tail', 'wc', 'sqlite3', 'bc', 'man', 'less']) {
    assert.ok(names.includes(n), `a man page for ${n}`);
  }
});

test('man: pages render as the host man renders them (no hyphenation)', async () => {
  const host = spawnSync('man', ['--version'], { encoding: 'utf8' });
  assert.match(host.stdout ?? '', /man/, 'the oracle needs man-db and groff (apt-get install man-db groff-base)');
  const failures: string[] = [];
  let n = 0;
  for (const { name, file } of shippedPages()) {
    // Two widths in the C locale, and 80 columns again under LANG=C.UTF-8 (groff's utf8 device).
    for (const [width, locale] of [[80, 'C'], [65, 'C'], [80, 'C.UTF-8']] as const) {
      n++;
      const env = locale === 'C' ? '' : `LC_ALL= LANG=${locale} `;
      const want = spawnSync('man', ['-l', file], {
        env: { ...ENV, ...(locale === 'C' ? {} : { LC_ALL: '', LANG: locale }), MANROFFOPT: '-rHY=0', MANWIDTH: String(width) },
        encoding: 'utf8',
      }).stdout;
      const got = await vm(`${env}MANWIDTH=${width} man ${name}`);
      if (got.stdout !== want || got.exitCode !== 0) failures.push(`${name} at ${width} columns (${locale}):\n--- want\n${want}\n--- got\n${got.stdout}${got.stderr}`);
    }
  }
  console.log(`man: ${n - failures.length}/${n} renderings match the host's`);
  assert.deepEqual(failures, []);
});

const chunks = (items: string[], n: number): string[] =>
  Array.from({ length: Math.ceil(items.length / n) }, (_, i) => items.slice(i * n, i * n + n).join('  '));

/** A page with non-ASCII text (accents, typographic marks, CJK and emoji, which take two columns) and the special characters, six to a line. */
const NON_ASCII_PAGE = [
  '.TH NAÏVE 1 "2024" "agentOS" "User Commands"',
  '.SH NAME',
  'naïve \\- café crème — déjà vu',
  '.SH DESCRIPTION',
  '.B naïve',
  'prints \\(lqhéllo wörld\\(rq, 日本語 and 😀 in a paragraph long enough to wrap at sixty-five columns: ünïcode text\\-with\\-hyphens.',
  '.TP',
  '.BR \\-ü ", " \\-\\-ümlaut',
  'an option named with a non-ASCII letter.',
  '.SH GLYPHS',
  '.nf',
  ...chunks(['em', 'en', 'hy', 'mi', 'aq', 'dq', 'lq', 'rq', 'oq', 'cq', 'bu', 'co', 'rg', 'tm', 'mu', 'di', '>=', '<=', '!=', '==', 'ti', 'ha', 'ga', 'aa', 'bv',
    'la', 'ra', 'Fo', 'Fc', 'fo', 'fc', '->', '<-', 'sq', 'de', 'ps', 'sc', 'dg', 'ct', 'Po', 'Ye', 'Eu', 'rn', '12', '14', '34', 'oe', 'ss', '+-'].map((k) => `${k} \\[${k}]`), 6),
  'strings \\*(lq \\*(rq \\*R \\*(Tm',
  '',
].join('\n');

test('man -l: a page with non-ASCII text renders as the host renders it, in ASCII under LC_ALL=C and in UTF-8 under LANG=C.UTF-8', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentos-man-'));
  try {
    // In the C locale, the prose only: the host's ASCII glyph table shows a stray '_' on one line of it (man-db's col).
    const prose = NON_ASCII_PAGE.slice(0, NON_ASCII_PAGE.indexOf('.SH GLYPHS'));
    for (const [width, locale] of [[65, 'C'], [65, 'C.UTF-8'], [80, 'C.UTF-8']] as const) {
      const page = locale === 'C' ? prose : NON_ASCII_PAGE;
      writeFileSync(join(dir, 'n.1'), page);
      await m!.writeFile('/tmp/n.1', page);
      const want = spawnSync('man', ['-l', join(dir, 'n.1')], {
        env: { ...ENV, ...(locale === 'C' ? {} : { LC_ALL: '', LANG: locale }), MANROFFOPT: '-rHY=0', MANWIDTH: String(width) },
        encoding: 'utf8',
      }).stdout;
      const got = await vm(`${locale === 'C' ? '' : `LC_ALL= LANG=${locale} `}MANWIDTH=${width} man -l /tmp/n.1`);
      assert.equal(got.stdout, want, `${locale} at ${width} columns`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('man: missing pages, sections, -w, -k, -f', async () => {
  let r = await vm('man nosuchpage');
  assert.deepEqual([r.stdout, r.stderr, r.exitCode], ['', 'No manual entry for nosuchpage\n', 16]);
  r = await vm('man 5 ls');
  assert.deepEqual([r.stderr, r.exitCode], ['No manual entry for ls in section 5\n', 16]);
  r = await vm('man');
  assert.deepEqual([r.stderr, r.exitCode], ["What manual page do you want?\nFor example, try 'man man'.\n", 1]);
  r = await vm('man -w ls sqlite3');
  assert.deepEqual(r.stdout.split('\n'), [
    '/opt/agentos/coreutils/current/share/man/man1/ls.1',
    '/opt/agentos/sqlite3/current/share/man/man1/sqlite3.1',
    '',
  ]);
  r = await vm('MANWIDTH=80 man 1 ls | head -1');
  assert.equal(r.stdout, `LS(1)${' '.repeat(28)}User Commands${' '.repeat(27)}LS(1)\n`);
  r = await vm('man -k copy; apropos "^(ls|wc)$"');
  assert.equal(r.stdout, [
    'cp (1)               - copy files and directories',
    'ls (1)               - list directory contents',
    'wc (1)               - print newline, word, and byte counts for each file',
    '',
  ].join('\n'));
  r = await vm('whatis less more; man -f nosuch');
  assert.equal(r.stdout, 'less (1)             - show text a screen at a time\nmore (1)             - show text a screen at a time\n');
  assert.deepEqual([r.stderr, r.exitCode], ['nosuch: nothing appropriate.\n', 16]);
  r = await vm('MANWIDTH=70 man more | head -1; man -l nope.1; echo $?');
  assert.equal(r.stdout, `LESS(1)${' '.repeat(21)}User Commands${' '.repeat(20)}LESS(1)\n16\n`);
  assert.equal(r.stderr, 'man: nope.1: No such file or directory\n');
});
