// /aos in a running VM, through the guest's own programs (ls, cat, echo,
// sudo, aosctl): the tree and the operator's files, a prompt to an inbox
// starting the agent's program, and the human channel's round trip.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';

let vm: AgentVM;
before(async () => {
  vm = new AgentVM({});
  await vm.start();
  await vm.vm.mkdirp('/etc/aos/agents.d');
  await vm.vm.writeFile('/etc/aos/agents.d/coder.yaml', 'model: mock\ntools: [bash, read_file]\n');
  await vm.vm.writeFile('/etc/aos/models.yaml', 'models:\n  mock:\n    input_usd_per_mtok: 0.5\n    output_usd_per_mtok: 1.5\n');
});
after(() => vm.stop());

test('ls and cat: agents, config, status, models, system spend, etc', async () => {
  const r = await vm.exec('ls /aos; ls /aos/agents/coder; cat /aos/agents/coder/config /aos/agents/coder/status /aos/models/mock/pricing /aos/system/spend; ls /aos/etc/agents.d; ls /aos/procs | wc -l');
  assert.equal(r.stdout, [
    'agents', 'channels', 'cores', 'etc', 'models', 'procs', 'system',
    'config', 'inbox', 'output', 'status',
    'model: mock', 'tools: [bash, read_file]', 'idle', 'input_usd_per_mtok: 0.5', 'output_usd_per_mtok: 1.5', '0',
    'coder.yaml', '0', '',
  ].join('\n'), r.stderr);
  const modes = await vm.exec("stat -c '%A %U %n' /aos/agents/coder/config /aos/agents/coder/inbox /aos/channels/human");
  assert.equal(modes.stdout, '-r--r--r-- root /aos/agents/coder/config\n--w--w--w- root /aos/agents/coder/inbox\n-rw-rw-rw- root /aos/channels/human\n');
});

test("a prompt committed to an inbox starts the agent's program as the writer, JSON {\"prompt\"} parsed", async () => {
  // A stand-in for `aos` (the agent runner): it records how it was started.
  await vm.vm.writeFile('/usr/bin/aos', '#!/bin/sh\necho "$(id -u) $*" >> /tmp/aos-started\n', 0o755);
  try {
    const r = await vm.exec(`printf 'part one, ' > /tmp/x; { printf 'fix '; printf 'the tests'; } > /aos/agents/coder/inbox; echo '{"prompt": "from json"}' >> /aos/agents/coder/inbox; echo 'not {json' > /aos/agents/coder/inbox; for i in 1 2 3 4 5 6 7 8 9 10; do [ "$(wc -l < /tmp/aos-started 2>/dev/null)" = 3 ] && break; sleep 0.2; done; sort /tmp/aos-started`);
    assert.equal(r.stdout, '1000 run coder fix the tests\n1000 run coder from json\n1000 run coder not {json\n', r.stderr);
  } finally {
    await vm.vm.syscall('unlink', '/usr/bin/aos');
  }
});

test('channels/human: the guest asks and blocks; the operator (root) answers with aos answer', async () => {
  // A program of its own (exec shells take one command at a time).
  const asking = vm.run(['/bin/bash', '-c', 'exec 3<>/aos/channels/human; echo "Deploy now?" >&3; read -r answer <&3; echo "got: $answer"'], { timeoutMs: 20_000 });
  let listed = '';
  for (let i = 0; i < 50 && !listed; i++) {
    listed = (await vm.exec('cat /aos/channels/human')).stdout;
    if (!listed) await new Promise((r) => setTimeout(r, 50));
  }
  const q = JSON.parse(listed) as { id: number; question: string };
  assert.equal(q.question, 'Deploy now?');
  // The user alone is not the operator.
  const denied = await vm.exec(`aos answer ${q.id} no; echo $?`);
  assert.match(denied.stdout, /^1\n/);
  assert.match(denied.stderr, /Permission denied/);
  assert.equal((await vm.exec(`sudo aos answer ${q.id} yes, go; aos pending`)).stdout, '');
  assert.equal(new TextDecoder().decode((await asking).stdout), 'got: yes, go\n');
});
