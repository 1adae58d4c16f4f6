#!/usr/bin/env node
// Comments cited design documents that live outside the repository ("seed
// 000", PRODUCT.md). The rule each one relied on is stated beside the
// citation already, so the citation goes. Re-runnable: a second run finds none.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const EDITS = [
  // A citation that is a whole comment line's start: end the sentence before it.
  [/\n(\s*)\/\/ \(seed \d{3}, "[^"]*"\)\. /g, '.\n$1// '],
  [/ \(seed \d{3}(?:, "[^"]*")?\)/g, ''],
  [/, seed \d{3}\)/g, ')'],
  [/\(seed \d{3}: /g, '('],
  [/ \(see PRODUCT\.md:\n(\s*)\/\/ /g, '\n$1// ('],
];

const files = execFileSync('git', ['ls-files', '-z', 'src', 'test', 'workers', 'e2e', 'bench', 'scripts'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((f) => /\.(ts|mjs|js)$/.test(f) && !f.startsWith('scripts/refactor/'));
let changed = 0;
for (const f of files) {
  const before = readFileSync(join(ROOT, f), 'utf8');
  const after = EDITS.reduce((t, [re, to]) => t.replace(re, to), before);
  if (after !== before) {
    writeFileSync(join(ROOT, f), after);
    changed++;
  }
}
console.log(`drop-seed-citations: ${changed} files rewritten`);
