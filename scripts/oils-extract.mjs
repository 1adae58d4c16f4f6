#!/usr/bin/env node
// Extract the Oils project's shell spec tests (spec/*.test.sh, Apache-2.0)
// into test/shell/oils/corpus/: one JSON file per spec file with the code of
// each case, plus the spec/testdata files the cases read through $REPO_ROOT.
//
//   node scripts/oils-extract.mjs [OILS_GIT_DIR]     (default /work/.mirror/oils-for-unix+oils/repo)
//
// The cases are parsed as the Oils harness (test/sh_spec.py) parses them:
// `#### NAME` starts a case; `## key: value` lines and `## STDOUT:` ...
// `## END` blocks are annotations (ignored here: real bash is the oracle);
// other lines are code, except comment lines and blank lines before the code,
// which the harness drops too; `## code: TEXT` gives a case's code inline.
// Files listed under "files" in test/shell/oils/skips.json are not extracted.
//
// An existing case whose code did not change keeps its bash answer; the
// others get none until the oracle runs again:
//   AGENTOS_OILS_ORACLE=1 node dist/test/shell/oils.test.js

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'test/shell/oils');
const CORPUS = join(OUT, 'corpus');
const GIT_DIR = process.argv[2] ?? '/work/.mirror/oils-for-unix+oils/repo';

const git = (...args) => execFileSync('git', ['-C', GIT_DIR, ...args], { maxBuffer: 64 << 20 });
const commit = git('rev-parse', 'HEAD').toString().trim();
const skips = JSON.parse(readFileSync(join(OUT, 'skips.json'), 'utf8'));

/** A file named in skips.json (a trailing `*` matches a prefix). */
const skipped = (file) =>
  Object.keys(skips.files).some((k) => (k.endsWith('*') ? file.startsWith(k.slice(0, -1)) : k === file));

const KEY_VALUE = /^##\s+(?:(?:OK(?:-\d)?|BUG(?:-\d)?|N-I)\s+[\w+/]+\s+)?([\w-]+):\s*(.*)$/;
const END = /^##\s+END/;

/** The cases of one spec file, as test/sh_spec.py reads them. */
function parseSpec(text) {
  const lines = text.split(/(?<=\n)/);
  const cases = [];
  const meta = {};
  let cur = null;
  let inBlock = false;
  let codeDone = false;
  lines.forEach((line, i) => {
    if (line.startsWith('####')) {
      cur = { name: line.slice(4).trim(), line: i + 1, code: '' };
      cases.push(cur);
      inBlock = false;
      codeDone = false;
      return;
    }
    if (inBlock) {
      if (END.test(line)) inBlock = false;
      return;
    }
    const kv = KEY_VALUE.exec(line.replace(/\n$/, ''));
    if (kv) {
      const [, key, value] = kv;
      if (key === 'STDOUT' || key === 'STDERR') inBlock = true;
      if (!cur) meta[key] = value.trim();
      else if (key === 'code') cur.code = value;
      if (cur && cur.code) codeDone = true;
      return;
    }
    if (!cur || codeDone) return;
    if (line.trimStart().startsWith('#')) return;
    if (cur.code === '' && line.trim() === '') return;
    cur.code += line;
  });
  return { meta, cases };
}

const specFiles = git('ls-tree', '--name-only', 'HEAD', 'spec/')
  .toString()
  .split('\n')
  .filter((p) => p.endsWith('.test.sh'));

mkdirSync(CORPUS, { recursive: true });
const wanted = new Set();
const testdata = new Set();
let total = 0;
for (const path of specFiles) {
  const file = path.slice('spec/'.length, -'.test.sh'.length);
  if (skipped(file)) continue;
  wanted.add(file);
  const { meta, cases } = parseSpec(git('show', `HEAD:${path}`).toString('latin1'));
  const outPath = join(CORPUS, `${file}.json`);
  const old = existsSync(outPath) ? JSON.parse(readFileSync(outPath, 'latin1')) : { cases: [] };
  const oldByKey = new Map(old.cases.map((c) => [`${c.name}\0${c.code}`, c]));
  const out = cases.map((c, n) => {
    const prev = oldByKey.get(`${c.name}\0${c.code}`);
    const entry = { n, name: c.name, line: c.line, code: c.code };
    if (meta.legacy_tmp_dir) entry.legacyTmp = true;
    if (prev?.bash) entry.bash = prev.bash;
    if (prev?.unstable) entry.unstable = prev.unstable;
    for (const m of c.code.matchAll(/testdata\/([\w./-]+)/g)) testdata.add(m[1]);
    return entry;
  });
  total += out.length;
  // latin1 round-trips every byte of the spec files (some hold non-UTF-8 bytes on purpose).
  writeFileSync(outPath, JSON.stringify({ file, source: path, commit, cases: out }, null, 1) + '\n', 'latin1');
}
for (const f of readdirSync(CORPUS)) {
  if (f.endsWith('.json') && !wanted.has(f.slice(0, -5))) rmSync(join(CORPUS, f));
}

// The spec/testdata files the extracted cases read (some names are globs or directories: take what exists).
const TD = join(OUT, 'testdata');
rmSync(TD, { recursive: true, force: true });
const allTd = git('ls-tree', '-r', '--name-only', 'HEAD', 'spec/testdata/').toString().split('\n').filter(Boolean);
let copied = 0;
for (const p of allTd) {
  const rel = p.slice('spec/testdata/'.length);
  if (![...testdata].some((t) => rel === t || rel.startsWith(t.replace(/\/?$/, '/')))) continue;
  mkdirSync(dirname(join(TD, rel)), { recursive: true });
  writeFileSync(join(TD, rel), git('show', `HEAD:${p}`));
  copied++;
}
// Apache-2.0: the license travels with the extracted cases (the Oils repository has no NOTICE file).
writeFileSync(join(OUT, 'LICENSE'), git('show', 'HEAD:LICENSE.txt'));
console.log(`oils-extract: ${total} cases from ${wanted.size} spec files, ${copied} testdata files, oils commit ${commit}`);
