// Background jobs as bash has them, differentially: each script runs as a
// script file in the VM's bash and in the host's bash (when it has one) and
// both must print what is expected. Finished jobs are reaped (no zombies) and
// their statuses kept; a background pipeline's stages are the shell's own
// children. Waits are on events (kill -0 polls, a fifo), never on timing.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';

let vm: AgentVM;
before(async () => {
  vm = new AgentVM();
  await vm.start();
});
after(() => vm.stop());

/** Run `script` as a file in a fresh directory with bash in the VM and, when it has one, on the host; both stdouts. */
async function both(script: string): Promise<{ vm: string; vmErr: string; host: string | null }> {
  await vm.writeFile('/tmp/job-case.sh', script);
  // (timeout: a shell that waits for the wrong job would wait for ever.)
  const r = await vm.exec('d=$(mktemp -d) && cd "$d" && timeout 20 bash /tmp/job-case.sh; cd /tmp; rm -rf "$d"');
  const dir = mkdtempSync(join(tmpdir(), 'agentos-jobs-'));
  try {
    writeFileSync(join(dir, 'case.sh'), script);
    const b = spawnSync('bash', ['case.sh'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    return { vm: r.stdout, vmErr: r.stderr, host: b.error || b.status === null ? null : b.stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function expect(script: string, want: string): Promise<void> {
  const r = await both(script);
  assert.equal(r.vm, want, r.vmErr);
  if (r.host !== null) assert.equal(r.host, want, 'the host bash agrees');
}

/** Until both background pids have ended (and been reaped: kill -0 answers for a zombie). */
const UNTIL_ENDED = 'while kill -0 $p 2>/dev/null || kill -0 $q 2>/dev/null; do sleep 0.01; done';

test('jobs: a finished job is shown once (Done, Exit N), then forgotten', async () => {
  // The + and - marks are cut: bash moves its current job as jobs end.
  await expect(
    `false & p=$!; true & q=$!; ${UNTIL_ENDED}; jobs > j1; jobs > j2; sed 's/^\\(\\[[0-9]*\\]\\)[-+ ]/\\1/' j1; echo --; cat j2; echo end`,
    '[1]  Exit 1                  false\n[2]  Done                    true\n--\nend\n',
  );
});

test('wait: a reaped pid or job still gives its status; $! stays the last job', async () => {
  await expect(
    `(exit 3) & p=$!; (exit 4) & q=$!; ${UNTIL_ENDED}; wait $p; echo "p $?"; wait %2; echo "j $?"; wait $p; echo "again $?"; [ "$!" = "$q" ] && echo same`,
    'p 3\nj 4\nagain 3\nsame\n',
  );
});

test('wait -n: the next job to end, one that already has first; 127 when none is left', async () => {
  await expect(
    // The first job started ends last: it waits for the fifo.
    'mkfifo f; { read -r x < f; exit 4; } & (exit 3) & wait -n; echo "n $?"; echo go > f; wait -n; echo "n $?"; wait -n; echo "n $?"',
    'n 3\nn 4\nn 127\n',
  );
});

test('a background pipeline: $! is its last stage; kill $! reaches it; kill %N every stage; wait $! its status', async () => {
  await expect(
    'sleep 30 | sleep 31 & ps -o args= -p $! | grep -o "sleep 3."; kill %1; wait $!; echo "last $?"; wait; echo done; ' +
      '(exit 2) | (exit 3) & wait $!; echo "$? ${PIPESTATUS[@]}"; ' +
      // (yes ends on the pipe node held, as soon as node is gone.)
      `yes | node -e 'setTimeout(() => {}, 30000)' & p=$!; kill $p; wait $p; echo "node $?"; wait; echo end`,
    'sleep 31\nlast 143\ndone\n3 3\nnode 143\nend\n',
  );
});

test('set -m: a background pipeline is one process group, its first stage\'s; kill -- -PGID reaches every stage', async () => {
  await expect(
    'set -m; sleep 30 | sleep 31 & g=$(ps -o pgid= -p $! | tr -d " "); [ "$g" = "$(jobs -p)" ] && echo group; kill -- -$g; wait $!; echo "$?"; wait; echo end',
    'group\n143\nend\n',
  );
});

test('1000 `true &`: finished jobs are reaped as the loop goes (no zombies pile up)', async () => {
  // Only the few that end between the last reap and ps's look may show as zombies.
  const script = 'for i in $(seq 1000); do true & done; z=$(ps -o stat= --ppid $$ | grep -c Z); [ "$z" -le 100 ] && echo few || echo "$z zombies"; wait; echo end';
  await expect(script, 'few\nend\n');
});

test('a background compound command redirected away keeps no copy of the old stdout: a reader of that pipe sees its end at once', async () => {
  // Before, the child shell kept a saved copy of fd 1 (to put back after the command), so `| cat`
  // waited for the job to end, and the job had ended by the time kill -0 asked.
  for (const job of ['(sleep 30) >/dev/null 2>&1', '{ sleep 30; } >/dev/null', 'while :; do sleep 1; done 2>/dev/null >/dev/null']) {
    const r = await vm.exec(`bash -c '${job} & echo $! > /tmp/bg.pid' | cat; kill -0 $(cat /tmp/bg.pid) && echo running; kill $(cat /tmp/bg.pid)`);
    assert.equal(r.stdout, 'running\n', `${job}: ${r.stderr}`);
  }
});
