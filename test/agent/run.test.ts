// Issue 19, items 1, 5, 6 and 8 through the real paths: `aos run` in a VM
// (AgentVM exec), its model calls through the kernel's model service with the
// mock backend. Budgets: test/agent/budget.test.ts; a hostile guest calling
// the agent syscalls itself: test/security/agent.test.ts.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { AgentVM } from '../../src/host/node/index.js';
import { bootVM, budgets, events, script } from './helpers.js';

let vm: AgentVM;
before(async () => {
  vm = await bootVM();
});
after(() => vm.stop());

test('item 1: a multi-step task edits a file with bash, reads it back and stops with its answer', async () => {
  await vm.writeFile('/tmp/app.txt', 'version = 1\n');
  await vm.writeFile('/tmp/edit.jsonl', script(
    { text: 'Bumping the version.', tool_calls: [{ name: 'bash', arguments: { command: "sed -i 's/version = 1/version = 2/' /tmp/app.txt && echo edited" } }], usage: { input_tokens: 50, output_tokens: 10 } },
    { text: '', tool_calls: [{ name: 'read_file', arguments: { path: '/tmp/app.txt' } }], match: '^edited' },
    { text: 'The version is now 2.', match: 'version = 2' },
  ));
  const r = await vm.exec('aos run --mock /tmp/edit.jsonl "bump the version in /tmp/app.txt" & p=$!; wait $p; echo "status=$?"; aos trace $p');
  assert.equal(r.stderr, '');
  const [answer, status, ...trace] = r.stdout.split('\n');
  assert.equal(answer, 'The version is now 2.');
  assert.equal(status, 'status=0');
  assert.equal(await vm.readFile('/tmp/app.txt').then((b) => new TextDecoder().decode(b)), 'version = 2\n');
  const ev = events(trace.join('\n'));
  assert.deepEqual(ev.map((e) => e.type), ['start', 'model_call', 'model_reply', 'tool_call', 'tool_result', 'model_call', 'model_reply', 'tool_call', 'tool_result', 'model_call', 'model_reply', 'exit']);
  assert.equal(ev[4].content, 'edited\n');
  assert.equal(ev[8].content, 'version = 2\n');
  assert.deepEqual(ev[11], { ...ev[11], code: 0, name: 'SUCCESS' });
});

test('item 1: edit_file replaces one exact match and refuses an ambiguous one; list_dir and write_file', async () => {
  await vm.writeFile('/tmp/e.txt', 'a b a\n');
  await vm.writeFile('/tmp/tools.jsonl', script(
    { text: '', tool_calls: [
      { name: 'edit_file', arguments: { path: '/tmp/e.txt', old_string: 'a', new_string: 'x' } },
      { name: 'edit_file', arguments: { path: '/tmp/e.txt', old_string: 'b', new_string: 'B' } },
      { name: 'write_file', arguments: { path: '/tmp/d/new.txt', content: 'hi' } },
      { name: 'list_dir', arguments: { path: '/tmp' } },
    ] },
    { text: 'ok' },
  ));
  const r = await vm.exec('mkdir -p /tmp/d; aos run --mock /tmp/tools.jsonl go & p=$!; wait $p; aos trace $p | grep tool_result');
  assert.equal(r.stdout.split('\n')[0], 'ok');
  const results = events(r.stdout.split('\n').slice(1).join('\n'));
  assert.match(String(results[0].content), /occurs more than once/);
  assert.equal(results[0].is_error, true);
  assert.equal(results[1].content, 'edited /tmp/e.txt');
  assert.equal(results[2].content, 'wrote 2 bytes to /tmp/d/new.txt');
  assert.match(String(results[3].content), /^d\/$/m);
  assert.equal(new TextDecoder().decode(await vm.readFile('/tmp/e.txt')), 'a B a\n');
});

test('item 5: a child agent spends out of its parent: capped by the parent, counted in its spend, shown under it', async () => {
  await vm.writeFile('/tmp/family.jsonl', script(
    { match: '^parent task', text: '', tool_calls: [{ name: 'spawn_agent', arguments: { prompt: 'child task', budget: 5 } }], usage: { input_tokens: 1000, output_tokens: 100 } },
    { match: '^child task', text: 'child answer', usage: { input_tokens: 2000, output_tokens: 300 } },
    { text: '', tool_calls: [{ name: 'wait', arguments: {} }] },
    { match: 'child answer', text: 'parent done' },
  ));
  const r = await vm.exec('aos run --budget 0.5 --mock /tmp/family.jsonl "parent task" & p=$!; wait $p; echo "status=$?"; c=$(aos ps --tree | grep -A1 "^$p " | tail -1 | sed "s/^└── //; s/ .*//"); aos budget $p; aos budget $c; aos ps --tree');
  const lines = r.stdout.split('\n');
  assert.deepEqual(lines.slice(0, 2), ['parent done', 'status=0'], r.stderr);
  const b = [...budgets(r.stdout).values()];
  assert.equal(b.length, 2);
  const [parent, child] = b;
  assert.equal(parent.limit, 0.5);
  assert.ok(child.limit <= 0.5, `the child asked for $5 and got at most the parent's remaining, not ${child.limit}`);
  // The child's turn: 2000 in at $1/M, 300 out at $4/M.
  assert.equal(child.spent, 0.0032);
  assert.ok(parent.spent > child.spent + 0.0014, `the parent's spend (${parent.spent}) includes the child's (${child.spent}) and its own`);
  assert.match(r.stdout, new RegExp(`^${parent.pid} .*\\n└── ${child.pid} `, 'm'));
});

test('item 6: budget exhausted exits 64 with no core; a refused tool exits 96 and leaves a core with the trace and last conversation', async () => {
  await vm.writeFile('/tmp/refuse.jsonl', script({ text: 'trying', tool_calls: [{ name: 'bash', arguments: { command: 'echo hi' } }] }));
  const r = await vm.exec([
    'aos run --budget 0.000001 --mock /tmp/refuse.jsonl "go" & p=$!; wait $p; echo "budget=$?"; aos core $p | wc -l',
    'aos run --tools read_file,list_dir --mock /tmp/refuse.jsonl "go" & q=$!; wait $q; echo "refused=$?"; aos core $q',
  ].join('\n'));
  const [budget, noCore, refused, core] = r.stdout.split('\n');
  assert.equal(budget, 'budget=64');
  assert.equal(noCore.trim(), '0');
  assert.equal(refused, 'refused=96');
  assert.match(r.stderr, /aos: budget exhausted: this call could cost/);
  assert.match(r.stderr, /aos: refused: the model called bash, which is not among this agent's tools \(read_file, list_dir\)/);
  const c = JSON.parse(core) as { id: string; exit: { code: number; name: string }; trace: string[]; messages: { content: string }[] };
  assert.match(c.id, /^\d+_\d{8}_\d{6}$/);
  assert.deepEqual([c.exit.code, c.exit.name], [96, 'REFUSED']);
  const types = c.trace.map((l) => (JSON.parse(l) as { type: string }).type);
  assert.deepEqual(types, ['start', 'model_call', 'model_reply', 'tool_call', 'exit']);
  assert.equal(c.messages[0].content, 'go');
});

test('item 1: SIGSTOP pauses an agent (status paused), SIGCONT resumes it, and it finishes', async () => {
  await vm.writeFile('/tmp/pause.jsonl', script(
    { text: '', tool_calls: [{ name: 'bash', arguments: { command: 'touch /tmp/p-started; cat /tmp/gate' } }] },
    { text: 'resumed and done', match: 'opened' },
  ));
  const r = await vm.exec([
    'rm -f /tmp/p-started; mkfifo /tmp/gate',
    'aos run --mock /tmp/pause.jsonl go > /tmp/p.out & p=$!',
    'until [ -e /tmp/p-started ]; do sleep 0.01; done',
    'aos kill -STOP $p; aos ps | grep "^$p " | cut -d" " -f4',
    'aos kill -CONT $p; aos ps | grep "^$p " | cut -d" " -f4',
    'echo opened > /tmp/gate; wait $p; echo "status=$?"; cat /tmp/p.out',
  ].join('\n'));
  assert.equal(r.stdout, 'paused\nrunning\nstatus=0\nresumed and done\n', r.stderr);
});

test('item 1: a checkpoint (conversation and state in a file) resumes in a new process after the first was killed', async () => {
  await vm.writeFile('/tmp/cp.jsonl', script(
    { text: '', tool_calls: [{ name: 'bash', arguments: { command: 'echo step-one-done' } }], usage: { input_tokens: 10, output_tokens: 10 } },
    { text: '', tool_calls: [{ name: 'bash', arguments: { command: '[ -e /tmp/resuming ] && echo second-life || kill -9 $PPID' } }], match: 'step-one-done' },
    { text: 'finished after resume', match: 'second-life' },
  ));
  const r = await vm.exec([
    'rm -f /tmp/resuming; aos run --budget 0.25 --checkpoint /tmp/cp.json --mock /tmp/cp.jsonl go; echo "first=$?"',
    'touch /tmp/resuming; aos run --resume /tmp/cp.json & p=$!; wait $p; echo "second=$?"; aos budget $p',
  ].join('\n'));
  const lines = r.stdout.split('\n');
  assert.deepEqual(lines.slice(0, 3), ['first=137', 'finished after resume', 'second=0'], r.stderr);
  const b = [...budgets(r.stdout).values()][0];
  assert.ok(b.limit < 0.25 && b.limit > 0.24, `the resumed agent has what was left of the budget, not ${b.limit}`);
});

test('item 8: shebang agents in a pipeline: stdin the input, stdout the answer', async () => {
  await vm.writeFile('/tmp/sum.jsonl', script({ match: 'apples', text: 'SUMMARY: fruit' }));
  await vm.writeFile('/tmp/tr.jsonl', script({ match: '^SUMMARY: fruit', text: 'RÉSUMÉ : fruits' }));
  await vm.writeFile('/tmp/summarize.aos', '#!/usr/bin/env aos\n# @model: mock:/tmp/sum.jsonl\n# @budget: 0.10\n# @tools: []\n# @timeout: 30\n\nSummarize the input.\n', 0o755);
  await vm.writeFile('/tmp/translate.aos', '#!/usr/bin/env aos\n# @model: mock:/tmp/tr.jsonl\n# @tools: [read_file]\n\nTranslate into French.\n', 0o755);
  const r = await vm.exec('printf "apples\\npears\\n" > /tmp/notes; cat /tmp/notes | /tmp/summarize.aos | /tmp/translate.aos > /tmp/out; echo "status=$?"; cat /tmp/out; aos ps | grep summarize.aos | cut -d" " -f2,5,6,7');
  assert.match(r.stdout, /^status=0\nRÉSUMÉ : fruits\nsummarize\.aos 0 SUCCESS \$0\.0000\d+\/\$0\.100000\n$/, r.stderr);
});

test('item 5: --dry-run prints the most the first call can cost and calls nothing', async () => {
  await vm.writeFile('/tmp/dry.jsonl', script({ text: 'never' }));
  const r = await vm.exec('aos run --dry-run --budget 0.001 --max-tokens 2000 --tools bash --mock /tmp/dry.jsonl "hello"; echo "status=$?"');
  assert.match(r.stdout, /^model: mock:\/tmp\/dry\.jsonl\ninput_tokens_max: \d+\noutput_tokens_max: 2000\nestimated_cost_usd_max: 0\.00\d+\nwill_exceed_budget: true\nstatus=0\n$/);
});

test('item 1: aos wait waits for an agent it did not start; aos kill ends it (its exit: KILLED by SIGTERM); --timeout exits 66', async () => {
  await vm.writeFile('/tmp/block.jsonl', script({ text: '', tool_calls: [{ name: 'bash', arguments: { command: 'touch /tmp/b-started; cat /tmp/gate2' } }] }, { text: 'never' }));
  const r = await vm.exec([
    'rm -f /tmp/b-started; mkfifo /tmp/gate2',
    'aos run --mock /tmp/block.jsonl go & p=$!',
    'until [ -e /tmp/b-started ]; do sleep 0.01; done',
    'sh -c "aos wait $p > /tmp/w.out" & w=$!',
    'aos kill $p; wait $w; echo "wait=$?"; cat /tmp/w.out',
    'rm -f /tmp/b-started; aos run --timeout 1 --mock /tmp/block.jsonl go; echo "timeout=$?"',
  ].join('\n'));
  const pid = /^(\d+): /m.exec(r.stdout)?.[1];
  assert.equal(r.stdout, `wait=143\n${pid}: 143 KILLED: killed by signal 15\ntimeout=66\n`, r.stderr);
  assert.match(r.stderr, /aos: timeout: no answer within 1 s/);
});

test('item 1: SIGUSR1 asks a running agent for a checkpoint, written at its next turn', async () => {
  await vm.writeFile('/tmp/usr1.jsonl', script(
    { text: '', tool_calls: [{ name: 'bash', arguments: { command: 'touch /tmp/u-started; cat /tmp/gate3' } }] },
    { text: 'checkpointed', match: 'let go' },
  ));
  const r = await vm.exec([
    'rm -f /tmp/u-started; mkfifo /tmp/gate3',
    'aos run --mock /tmp/usr1.jsonl go & p=$!',
    'until [ -e /tmp/u-started ]; do sleep 0.01; done',
    'aos kill -USR1 $p; echo "let go" > /tmp/gate3; wait $p; echo "status=$?"',
    'jq -c "[.version, (.messages | map(.role)), .messages[2].content]" /tmp/aos-$p.checkpoint.json',
  ].join('\n'));
  assert.equal(r.stdout, 'checkpointed\nstatus=0\n[1,["user","assistant","tool"],"let go\\n"]\n', r.stderr);
});

test("item 1: the prompt from stdin when none is given; a named agent's config (/etc/aos/agents.d) gives the model and tools", async () => {
  await vm.writeFile('/tmp/stdin.jsonl', script({ text: 'got it from stdin', match: '^sort the list' }));
  const r = await vm.exec('echo "sort the list" | aos run --mock /tmp/stdin.jsonl; echo "status=$?"');
  assert.equal(r.stdout, 'got it from stdin\nstatus=0\n', r.stderr);
  await vm.exec('sudo mkdir -p /etc/aos/agents.d');
  assert.equal((await vm.exec("printf 'model: mock\\ntools: [list_dir]\\n' | sudo tee /etc/aos/agents.d/lister.yaml >/dev/null")).exitCode, 0);
  await vm.writeFile('/tmp/lister.jsonl', script({ text: '', tool_calls: [{ name: 'list_dir', arguments: { path: '/etc/aos' } }] }, { text: 'listed', match: 'agents\\.d/' }));
  const n = await vm.exec('echo "list /etc/aos" > /tmp/prompt; aos run lister --mock /tmp/lister.jsonl < /tmp/prompt & p=$!; wait $p; echo "status=$?"; echo $p');
  const [answer, status, pid] = n.stdout.split('\n');
  assert.deepEqual([answer, status], ['listed', 'status=0'], n.stderr);
  const me = (await vm.agents.list()).find((a) => a.pid === Number(pid));
  assert.deepEqual([me?.agent, me?.tools], ['lister', ['list_dir']]);
});
