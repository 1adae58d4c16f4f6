# Node with async child processes (spawn + pipes) and promises.
cat > run.mjs <<'JS'
import { spawn } from 'node:child_process';
function run(cmd, args, input) {
  return new Promise((resolve) => {
    const p = spawn(cmd, args);
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.on('close', (code) => resolve({ code, out }));
    if (input !== undefined) p.stdin.end(input); else p.stdin.end();
  });
}
const a = await run('tr', ['a-z', 'A-Z'], 'shout\n');
const b = await run('wc', ['-l'], 'x\ny\nz\n');
const c = await run('false', []);
console.log(JSON.stringify([a, b.out.trim(), c.code]));
JS
node run.mjs
