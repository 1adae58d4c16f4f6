# Node as a filter in a shell pipeline: reads stdin lines, writes JSON lines, jq consumes.
cat > tojson.js <<'JS'
const rl = require('readline').createInterface({ input: process.stdin });
let n = 0;
rl.on('line', (line) => {
  const [k, v] = line.split('=');
  if (v !== undefined) console.log(JSON.stringify({ key: k.trim(), value: v.trim(), n: ++n }));
});
rl.on('close', () => console.error(`${n} pairs`));
JS
printf 'a = 1\nnot a pair\nb=two\n  c =  x y \n' | node tojson.js 2>count.txt | jq -c '{(.key): .value}'
cat count.txt
seq 1 3 | sed 's/.*/k&=v&/' | node tojson.js 2>/dev/null | jq -s 'map(.n) | add'
