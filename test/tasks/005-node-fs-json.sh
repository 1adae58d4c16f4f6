# Node reads a directory, writes JSON, and a second script consumes it; errors give exit codes.
mkdir -p data
for i in 3 1 2; do printf 'item %s\n' "$i" > "data/f$i.txt"; done
cat > scan.js <<'JS'
const fs = require('fs');
const path = require('path');
const files = fs.readdirSync('data').sort();
const index = files.map((f) => ({ name: f, bytes: fs.statSync(path.join('data', f)).size }));
fs.writeFileSync('index.json', JSON.stringify(index, null, 1) + '\n');
console.log(files.length, 'files');
JS
cat > check.js <<'JS'
const index = JSON.parse(require('fs').readFileSync('index.json', 'utf8'));
const total = index.reduce((n, e) => n + e.bytes, 0);
console.log('total', total);
if (total !== 21) process.exit(1);
JS
node scan.js && node check.js && echo ok
cat index.json
node -e 'require("fs").readFileSync("missing.json")' 2>/dev/null; echo "missing: $?"
