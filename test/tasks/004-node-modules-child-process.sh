# A Node program split in modules, spawning child processes and collecting their output.
mkdir -p app/lib
cat > app/lib/greet.js <<'JS'
module.exports = (name) => `hello, ${name}`;
JS
cat > app/main.js <<'JS'
const greet = require('./lib/greet');
const { execSync, spawnSync } = require('child_process');
console.log(greet('world'));
const out = execSync('echo from-child; printf "%s\\n" b a c | sort', { encoding: 'utf8' });
process.stdout.write(out);
const r = spawnSync('sh', ['-c', 'echo err >&2; exit 4'], { encoding: 'utf8' });
console.log('status', r.status, 'stderr', JSON.stringify(r.stderr));
JS
node app/main.js
echo "exit $?"
