#!/usr/bin/env node
// `npm run demo:agent`: an agent inside agentOS fixes a bug. It reads a small
// project in the VM, runs its test (which fails), edits the file with `bash`
// (sed), runs the test again and stops with its answer; every step is printed
// from the kernel's trace as it happens. The mock backend (a script, no
// network) by default; with OPENAI_API_KEY (or ANTHROPIC_API_KEY) set, a real
// model of the image's /etc/aos/models.yaml (gpt-4o-mini or
// claude-3-5-haiku-latest, or $AOS_DEMO_MODEL) whose key stays on the host: a
// host-held secret of that name, which the VM only sees as a placeholder.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(join(ROOT, 'dist/node/index.js'))) {
  const r = spawnSync(process.execPath, ['scripts/build.mjs', '--node-only'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(1);
}
const { AgentVM } = await import(pathToFileURL(join(ROOT, 'dist/node/index.js')).href);

const t0 = performance.now();
// The provider whose key is given: the secret's name and host are the ones the image's model table names.
const provider = process.env.OPENAI_API_KEY
  ? { secret: 'OPENAI_API_KEY', host: 'api.openai.com', model: 'gpt-4o-mini' }
  : process.env.ANTHROPIC_API_KEY ? { secret: 'ANTHROPIC_API_KEY', host: 'api.anthropic.com', model: 'claude-3-5-haiku-latest' } : null;
const model = process.env.AOS_DEMO_MODEL ?? provider?.model;
const vm = new AgentVM(provider ? {
  policy: { secrets: { [provider.secret]: { value: process.env[provider.secret], hosts: [provider.host] } }, network: { allow: [provider.host] } },
} : {});
await vm.start();

const APP = '/home/user/app';
await vm.exec(`mkdir -p ${APP}`);
await vm.writeFile(`${APP}/sum.mjs`, 'export function add(a, b) {\n  return a - b;\n}\n');
await vm.writeFile(`${APP}/test.mjs`, "import { add } from './sum.mjs';\nif (add(2, 3) !== 5) { console.log(`FAIL: add(2, 3) = ${add(2, 3)}`); process.exit(1); }\nconsole.log('PASS');\n");

const task = `The test in ${APP} fails (run: cd ${APP} && node test.mjs). Fix the bug in sum.mjs with bash, run the test again, and stop when it passes.`;
let opts;
if (provider) {
  opts = { model, tools: ['bash', 'read_file'], budgetUsd: 0.05 };
} else {
  const turns = [
    { text: 'Let me run the test first.', tool_calls: [{ name: 'bash', arguments: { command: `cd ${APP} && cat sum.mjs && node test.mjs` } }] },
    { text: 'add subtracts. Fixing it with sed.', tool_calls: [{ name: 'bash', arguments: { command: `cd ${APP} && sed -i 's/a - b/a + b/' sum.mjs && cat sum.mjs` } }], match: 'FAIL' },
    { text: 'Running the test again.', tool_calls: [{ name: 'bash', arguments: { command: `cd ${APP} && node test.mjs` } }], match: 'a \\+ b' },
    { text: 'Fixed: add() subtracted instead of adding; the test passes now.', match: 'PASS' },
  ];
  await vm.writeFile('/tmp/demo.jsonl', `${turns.map((t) => JSON.stringify(t)).join('\n')}\n`);
  opts = { mock: '/tmp/demo.jsonl', tools: ['bash', 'read_file'] };
}

const clip = (s) => (s.length > 200 ? `${s.slice(0, 200)}…` : s).replace(/\n/g, '\n      ');
const off = vm.agents.on('trace', ({ pid, event: e }) => {
  if (e.type === 'model_reply' && e.text) console.log(`[${pid}] model: ${e.text}`);
  else if (e.type === 'tool_call') console.log(`[${pid}] ${e.name}: ${e.arguments?.command ?? JSON.stringify(e.arguments)}`);
  else if (e.type === 'tool_result') console.log(`      ${clip(String(e.content).trimEnd())}`);
});
console.log(`task: ${task}\n(${provider ? `model ${model}, key held by the host` : 'mock backend'})\n`);
const agent = await vm.agents.run(task, opts);
const r = await agent.wait();
await new Promise((done) => setTimeout(done, 250)); // the last trace events
off();
const [info] = (await vm.agents.list()).filter((a) => a.pid === agent.pid);
const test = await vm.exec(`cd ${APP} && node test.mjs`);
console.log(`\nanswer (exit ${r.code}): ${r.answer.trim()}${r.stderr ? `\n${r.stderr.trim()}` : ''}`);
console.log(`spent $${info.budget.spentUsd.toFixed(6)}; the test now says: ${test.stdout.trim()}; ${((performance.now() - t0) / 1000).toFixed(1)} s`);
await vm.stop();
process.exit(r.code === 0 && test.exitCode === 0 ? 0 : 1);
