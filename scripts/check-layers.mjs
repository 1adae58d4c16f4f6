#!/usr/bin/env node
// The layer rule, checked: every import in src/ and workers/ must be one the
// table "Layers and who may call whom" in docs/architecture.md allows. The
// table is the only statement of the rule; this script parses it. Run by
// `npm test` (its "layers" stage); exit status 1 and one line per crossing.
//
// Table cells read: `folders` and `may import` hold backticked tokens,
//   src/kernel/            a folder (a `*` stands for one path segment)
//   src/runtimes/js/api.ts one file (an exception to its folder's rule)
//   node:*  node:fs/promises  a Node built-in (a bare `fs` counts as `node:fs`)
//   comlink  @xterm/*      an npm package
// and (text in parentheses) a note for the reader, not read here.
// A file belongs to the layer whose folder matches it most closely; it may
// import its own layer and what its row's `may import` lists. Imports are
// found by TypeScript's preprocessor: static, dynamic and `import type`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TABLE_DOC = 'docs/architecture.md';
const HEADING = '## Layers and who may call whom';
const SCANNED = ['src', 'workers'];
const SOURCE = /\.(ts|mts|js|mjs)$/;

/** `glob` (a folder ending in `/`, or a file; `*` = one segment) as a test on repository paths. */
function pathMatcher(glob) {
  const body = glob.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+');
  const re = new RegExp(`^${body}${glob.endsWith('/') ? '' : '$'}`);
  return { glob, test: (p) => re.test(p), weight: glob.length };
}

function nameMatcher(glob) {
  const re = new RegExp(`^${glob.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\/]/g, '\\$&')).join('.*')}$`);
  return (name) => re.test(name);
}

/** The table's rows: { name, folders, paths, modules } from the document's text. */
export function parseTable(markdown) {
  const lines = markdown.split('\n');
  const at = lines.indexOf(HEADING);
  if (at < 0) throw new Error(`${TABLE_DOC}: no '${HEADING}' section`);
  const rows = [];
  let i = at + 1;
  while (i < lines.length && !lines[i].startsWith('|')) i++;
  for (; i < lines.length && lines[i].startsWith('|'); i++) rows.push(lines[i].split('|').slice(1, -1).map((c) => c.trim()));
  const [header, , ...body] = rows;
  const col = (name) => {
    const n = header?.indexOf(name) ?? -1;
    if (n < 0) throw new Error(`${TABLE_DOC}: the layer table has no '${name}' column`);
    return n;
  };
  const [cLayer, cFolders, cMay] = [col('layer'), col('folders'), col('may import')];
  // Notes in parentheses are for the reader.
  const tokens = (cell) => [...cell.replace(/\([^)]*\)/g, '').matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  return body.map((cells) => {
    const may = tokens(cells[cMay]);
    const isPath = (t) => !t.startsWith('node:') && !t.startsWith('@') && t.includes('/');
    return {
      name: cells[cLayer],
      folders: tokens(cells[cFolders]).map(pathMatcher),
      paths: may.filter(isPath).map(pathMatcher),
      modules: may.filter((t) => !isPath(t)).map((t) => ({ glob: t, test: nameMatcher(t) })),
    };
  });
}

function sourceFiles(dir, out = []) {
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) sourceFiles(p, out);
    else if (SOURCE.test(e.name)) out.push(p);
  }
  return out;
}

/** The table as docs/architecture.md states it, and the files it governs (repository paths). */
export function repository() {
  return { rows: parseTable(readFileSync(join(ROOT, TABLE_DOC), 'utf8')), files: SCANNED.flatMap((d) => sourceFiles(d)) };
}

export const readSource = (file) => readFileSync(join(ROOT, file), 'utf8');

/** The row whose folder matches `file` most closely. */
function layerOf(rows, file) {
  let best = null;
  let weight = -1;
  for (const row of rows) {
    for (const f of row.folders) {
      if (f.test(file) && f.weight > weight) [best, weight] = [row, f.weight];
    }
  }
  return best;
}

const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('node:')));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
/** A dependency named like a built-in (`buffer`) is the package: the bundles resolve it so. */
const DEPENDENCIES = new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }));

/** What an import names: a repository path, a Node built-in (`node:x`) or a package name. */
function target(file, spec) {
  const bare = spec.split('?')[0];
  if (bare.startsWith('.')) {
    let p = relative(ROOT, resolve(ROOT, dirname(file), bare));
    // The sources import `x.js` for `x.ts`.
    if (!existsSync(join(ROOT, p)) && p.endsWith('.js') && existsSync(join(ROOT, p.slice(0, -3) + '.ts'))) p = p.slice(0, -3) + '.ts';
    return { kind: 'path', name: p };
  }
  const name = bare.split('/').slice(0, bare.startsWith('@') ? 2 : 1).join('/');
  if (bare.startsWith('node:')) return { kind: 'module', name: bare };
  if (!DEPENDENCIES.has(name) && BUILTINS.has(name)) return { kind: 'module', name: `node:${bare}` };
  return { kind: 'module', name };
}

/** Every import that crosses the table's rules, as messages; also files no row covers, and stale tokens. */
export function check(rows, files, read) {
  const problems = [];
  for (const row of rows) {
    for (const p of [...row.folders, ...row.paths]) {
      if (!files.some((f) => p.test(f))) problems.push(`${TABLE_DOC}: layer '${row.name}' names \`${p.glob}\`, which matches no source file`);
    }
  }
  let imports = 0;
  for (const file of files) {
    const row = layerOf(rows, file);
    if (!row) {
      problems.push(`${file}: in no layer of the table in ${TABLE_DOC} (add its folder to a row)`);
      continue;
    }
    const info = ts.preProcessFile(read(file), true, true);
    for (const { fileName: spec } of info.importedFiles) {
      imports++;
      const t = target(file, spec);
      const ok = t.kind === 'path'
        ? layerOf(rows, t.name) === row || row.paths.some((p) => p.test(t.name))
        : row.modules.some((m) => m.test(t.name));
      if (ok) continue;
      const owner = t.kind === 'path' ? layerOf(rows, t.name) : null;
      const what = t.kind === 'path' ? `${t.name}${owner ? ` (layer '${owner.name}')` : ''}` : t.name;
      const allowed = [...row.paths, ...row.modules].map((p) => p.glob).join(', ') || 'nothing outside itself';
      problems.push(`${file}: imports '${spec}' = ${what}; layer '${row.name}' may import ${allowed} (${TABLE_DOC})`);
    }
  }
  return { problems, imports };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { rows, files } = repository();
  const { problems, imports } = check(rows, files, readSource);
  for (const p of problems) console.error(`layers: ${p}`);
  console.log(`layers: ${files.length} files, ${imports} imports, ${rows.length} layers: ${problems.length ? `${problems.length} crossing(s)` : 'no crossing'}`);
  process.exit(problems.length ? 1 : 0);
}
