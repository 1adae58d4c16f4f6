# A Node project laid out like npm's: package.json, an ES module library, a test runner script.
mkdir -p proj/src proj/test && cd proj
cat > package.json <<'J'
{ "name": "slugify-lite", "version": "1.2.0", "type": "module", "main": "src/index.js" }
J
cat > src/index.js <<'JS'
export function slugify(s) {
  return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
JS
cat > test/run.js <<'JS'
import assert from 'node:assert/strict';
import { slugify } from '../src/index.js';
import { readFileSync } from 'node:fs';
const cases = [['Hello World', 'hello-world'], ['  Crème Brûlée! ', 'creme-brulee'], ['a__b', 'a-b']];
let failed = 0;
for (const [input, want] of cases) {
  try { assert.equal(slugify(input), want); console.log('ok', want); }
  catch { failed++; console.log('not ok', input); }
}
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url)));
console.log(`${pkg.name}@${pkg.version}: ${cases.length - failed}/${cases.length}`);
process.exitCode = failed ? 1 : 0;
JS
node test/run.js; echo "exit $?"
