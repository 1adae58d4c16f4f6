// Moves files and rewrites every reference to them, for the tree refactors in
// this folder (issue 17). Safe to re-run: a move whose source is gone does
// nothing, files that appeared at an old place since (a merge) are moved too,
// and references still spelled the old way anywhere are rewritten.
//
//   1. Each file under a move's `from` (tracked or untracked, not ignored) goes
//      to `to` (git mv when tracked); emptied folders are removed.
//   2. Relative specifiers in code (import/export … from, import(), bare
//      import, new URL(…, import.meta.url)) are re-resolved: from the file's
//      old place to the target's old place, then to both new places. Test
//      files run from dist/test/, one level deeper than test/, so a specifier
//      reaching above the repository from test/ is mapped one level down too.
//   3. Repository-relative mentions (`src/user/sys.ts`, "test/net/*" in docs,
//      configs and comments, and built copies under dist/) are rewritten in
//      every text file.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

const CODE = /\.(ts|mts|cts|mjs|cjs|js|tsx)$/;
const TEXT = /\.(ts|mts|cts|mjs|cjs|js|tsx|json|md|html|yml|yaml|py|sh|txt|css)$/;
const SKIP = /^(node_modules|dist|test-results|playwright-report|wasm\/out|scripts\/refactor)\/|(^|\/)package-lock\.json$/;

/** One move: a folder (`from` without an extension) or a file (`from` ending .ts etc.). */
const isFile = (p) => /\.[a-z]+$/.test(posix.basename(p));
const stem = (p) => p.replace(CODE, '');

/**
 * moves: [from, to][] of repository-relative paths, the more specific first
 * (the first that matches a path wins). keep: files whose text names the old
 * paths on purpose (the decision record of the move).
 */
export function applyMoves(root, moves, { dryRun = false, keep = [] } = {}) {
  const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
  const listFiles = () => git('ls-files', '-co', '--exclude-standard', '-z').split('\0').filter((f) => f && !SKIP.test(f) && existsSync(join(root, f)));
  const tracked = new Set(git('ls-files', '-z').split('\0').filter(Boolean));

  /** Where a path (file, folder or extension-less import target) goes; itself when no move matches. */
  const mapPath = (p) => {
    for (const [from, to] of moves) {
      if (isFile(from)) {
        if (stem(p) === stem(from)) return stem(to) + p.slice(stem(p).length);
      } else if (p === from || p.startsWith(from + '/')) {
        return to + p.slice(from.length);
      }
    }
    return p;
  };

  // 1. Move the files.
  const moved = new Map(); // new path -> old path
  for (const f of listFiles()) {
    const to = mapPath(f);
    if (to === f) continue;
    if (existsSync(join(root, to))) {
      console.warn(`refactor: ${f} -> ${to}: the target exists; left in place`);
      continue;
    }
    console.log(`move ${f} -> ${to}`);
    moved.set(to, f);
    if (dryRun) continue;
    mkdirSync(dirname(join(root, to)), { recursive: true });
    if (tracked.has(f)) git('mv', f, to);
    else renameSync(join(root, f), join(root, to));
  }
  if (!dryRun) {
    for (const [from] of moves) removeEmptyDirs(join(root, isFile(from) ? dirname(from) : from));
    for (const old of moved.values()) removeEmptyDirs(join(root, dirname(old)));
  }

  // 2 and 3. Rewrite references in every text file.
  const mention = mentionPattern(moves);
  let rewritten = 0;
  for (const f of dryRun ? [] : listFiles()) {
    if (!TEXT.test(f) || keep.includes(f)) continue;
    const file = join(root, f);
    const before = readFileSync(file, 'utf8');
    let text = before;
    if (CODE.test(f)) text = rewriteSpecifiers(text, f, moved.get(f) ?? f, mapPath);
    text = text.replace(mention, (m) => (m.startsWith('dist/') ? 'dist/' + mapPath(m.slice(5)) : mapPath(m)));
    if (text !== before) {
      writeFileSync(file, text);
      rewritten++;
    }
  }
  console.log(`refactor: ${moved.size} files moved, ${rewritten} files rewritten`);
}

/**
 * A mention of an old path not inside a longer path or name: `src/user/x.ts`, "test/net", but not src/userland or
 * ../test/net; also its built copy, dist/test/net/x.test.js.
 */
function mentionPattern(moves) {
  const alts = moves
    .map(([from]) => (isFile(from) ? stem(from) : from))
    .sort((a, b) => b.length - a.length)
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![\\w.@/-])(?:dist/)?(?:${alts.join('|')})(?![\\w-])(?:/[\\w.*-]+)*`, 'g');
}

/** Relative specifiers: import/export … from '…', import('…'), import '…', new URL('…', import.meta.url) (a template's static prefix). */
const SPECIFIER =
  /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew\s+URL\s*\(\s*)(['"`])(\.{1,2}\/[^'"`$\n]*|\.{1,2})(?=[$'"`])/g;

function rewriteSpecifiers(text, file, oldFile, mapPath) {
  const newDir = posix.dirname(file);
  const oldDir = posix.dirname(oldFile);
  const underTest = file.startsWith('test/');
  return text.replace(SPECIFIER, (all, lead, quote, spec) => {
    const trailing = spec.endsWith('/') ? '/' : '';
    let target = posix.normalize(posix.join(oldDir, spec));
    let mapped = mapPath(target);
    // From dist/test/… a test reaches the repository with one more '..'.
    if (mapped === target && underTest && target.startsWith('../')) mapped = '../' + mapPath(target.slice(3));
    if (mapped === target && newDir === oldDir) return all;
    let rel = posix.relative(newDir, mapped) || '.';
    if (!rel.startsWith('.')) rel = './' + rel;
    if (trailing && !rel.endsWith('/')) rel += '/';
    return lead + quote + rel;
  });
}

function removeEmptyDirs(dir) {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return;
  for (const e of readdirSync(dir)) removeEmptyDirs(join(dir, e));
  if (readdirSync(dir).length === 0) rmdirSync(dir);
}
