# Persistence across invocations: a node script keeps a JSON state file that each call updates.
cat > counter.js <<'JS'
const fs = require('fs');
const file = 'state.json';
const state = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : { runs: 0, names: [] };
state.runs += 1;
state.names.push(process.argv[2] ?? 'anon');
fs.writeFileSync(file, JSON.stringify(state, null, 2) + '\n');
console.log(`run ${state.runs}: ${state.names.join(', ')}`);
JS
node counter.js première
#--- next invocation ---
node counter.js second
node counter.js third
#--- next invocation ---
node counter.js last
node -e 'const s = require("./state.json"); console.log(s.names.length, s.names.map((n) => n.length).join(" "))'
wc -l < state.json
