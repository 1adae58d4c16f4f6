// The `agentos` command (Node host). The shell issue adds an interactive shell and `exec`;
// until then it boots a VM, runs programs in it and reports its state.

import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { once } from 'node:events';
import type { MountSpec, SpawnedProcess } from '../host/api/agent-vm.js';
import { MCP_USAGE, mcpCommand } from './mcp.js';
import { AgentVM, boot } from '../host/node/index.js';
import { POLICY_USAGE, finishPolicy, newPolicyFlags, policyOptions, stopVm, takePolicyFlag } from './policy-flags.js';
import { BROWSER_USAGE, newBrowserFlags, newBrowserVM, takeBrowserFlag } from './browser-flags.js';
import { ISOLATION_USAGE, newIsolationFlag, takeIsolationFlag } from './isolation-flag.js';
import { optionValue } from './option-value.js';
import type { VM } from '../host/api/vm.js';
import { longTimeout, type LongTimeout } from '../abi/long-timeout.js';

const USAGE = `Usage: agentos COMMAND [ARGS...]

Boot an agentOS virtual machine and use it (on the Node host, in a child process of its own
under Node's permission model unless --isolation none says otherwise).

Commands:
  exec [--json] [--timeout SECONDS] [--cwd DIR] [--env K=V]... [-i] [--state DIR]
       [--mount HOST:VM[:ro]]... [--publish HOST_PORT:VM_PORT]... [--isolation MODE] [POLICY OPTIONS] [BROWSER OPTIONS] -- 'SCRIPT'
                          run SCRIPT in the VM's shell; its stdout and stderr become agentos's
                          own, unchanged, and agentos exits with its status (124 on timeout).
                          --timeout: SIGINT to the script and everything it started, SIGKILL
                          a second later (0: none). -i passes agentos's stdin to the script
                          (default /dev/null); --json prints one object {"stdout","stderr",
                          "exitCode","timedOut","truncated"} instead ("truncated": output past
                          --max-output was dropped).
                          --state DIR: a persistent VM whose writable layer lives in DIR
                          (created if missing); every write is durable when exec returns.
                          --mount HOST:VM[:ro]: host directory HOST appears at VM path VM,
                          live and two-way (read-only with :ro); nothing outside it is reachable.
                          --publish HOST_PORT:VM_PORT: while SCRIPT runs, a connection to
                          127.0.0.1:HOST_PORT on this machine reaches the server listening on
                          VM_PORT in the VM (vm.expose; only 127.0.0.1, never other interfaces).
  shell [--state DIR] [--isolation MODE] [POLICY OPTIONS] [BROWSER OPTIONS]
                          an interactive shell on this terminal (raw mode, job control, resize);
                          when stdin is not a terminal, the VM's bash -s reads it as a script
                          (output as it comes, no prompts; agentos exits with its status)
  snapshot [--state DIR] [--isolation MODE] create NAME | list | restore NAME | delete NAME
                          | export NAME FILE | import FILE [NAME]
                          snapshots of the writable layer (DIR's VM; without --state, an
                          ephemeral VM, which is only useful for export/import checks)
  repair --state DIR      repair DIR's damaged layer (a VM refuses to open it and says where
                          it is damaged): it keeps what the commits before the damage made,
                          and copies of the damaged files in DIR/damaged-<time>/
  status [--isolation MODE]
                          boot, print the kernel's state (processes, workers, mounts) and where it
                          runs (host: isolation, pid) as JSON
  run [--isolation MODE] FILE.js [ARG...]
                          copy a JavaScript program into the VM and run it; its stdout, stderr
                          and exit status become agentos's own (stdin is passed through)
${MCP_USAGE}
  help                    show this help

${POLICY_USAGE}

${BROWSER_USAGE}

${ISOLATION_USAGE}

The program runs on agentOS's JavaScript runtime with an \`agentos\` object in scope
(argv, env, sys: the syscall interface, print, exit).`;

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    process.stdout.write(USAGE + '\n');
    return cmd ? 0 : 2;
  }
  if (cmd === 'exec') return execCommand(rest);
  if (cmd === 'shell') return shellCommand(rest);
  if (cmd === 'snapshot') return snapshotCommand(rest);
  if (cmd === 'repair') return repairCommand(rest);
  if (cmd === 'mcp') {
    return mcpCommand(rest, (msg) => {
      process.stderr.write(`agentos ${msg}\nTry 'agentos help' for more information.\n`);
      return 2;
    });
  }
  if (cmd === 'status') {
    const iso = newIsolationFlag();
    for (let i = 0; i < rest.length; i += 2) {
      try {
        if (!takeIsolationFlag(rest, i, iso)) return usageError(`status: unexpected '${rest[i]}'`);
      } catch (e) {
        return usageError(`status: ${(e as Error).message}`);
      }
    }
    const m = await boot({ isolation: iso.isolation });
    try {
      process.stdout.write(JSON.stringify({ ...(await m.status()), host: m.host }, null, 2) + '\n');
    } finally {
      await m.stop();
    }
    return 0;
  }
  if (cmd === 'run') {
    const iso = newIsolationFlag();
    let took: number;
    try {
      took = takeIsolationFlag(rest, 0, iso);
    } catch (e) {
      return usageError(`run: ${(e as Error).message}`);
    }
    const [file, ...args] = rest.slice(took);
    if (!file) {
      process.stderr.write('agentos run: missing FILE\n');
      return 2;
    }
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch (e) {
      process.stderr.write(`agentos run: ${file}: ${(e as Error).message}\n`);
      return 1;
    }
    const stdin = process.stdin.isTTY ? undefined : readFileSync(0);
    const m = await boot({ isolation: iso.isolation });
    try {
      const path = `/tmp/${basename(file)}`;
      await m.writeFile(path, source.startsWith('#!') ? source : `#!/usr/libexec/agentos/js\n${source}`, 0o755);
      const r = await m.run([path, ...args], { stdin, cwd: '/home/user' });
      process.stdout.write(r.stdout);
      process.stderr.write(r.stderr);
      return r.exitCode;
    } finally {
      await m.stop();
    }
  }
  process.stderr.write(`agentos: unknown command '${cmd}'\n${USAGE}\n`);
  return 2;
}

function usageError(msg: string): number {
  process.stderr.write(`agentos exec: ${msg}\nTry 'agentos help' for more information.\n`);
  return 2;
}

async function execCommand(args: string[]): Promise<number> {
  let json = false;
  let timeoutMs: number | undefined;
  let cwd: string | undefined;
  let state: string | undefined;
  let forwardStdin = false;
  const env: Record<string, string> = {};
  const mounts: Record<string, MountSpec> = {};
  const publish: { host: number; vm: number }[] = [];
  const pf = newPolicyFlags();
  const bf = newBrowserFlags();
  const iso = newIsolationFlag();
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      i++;
      break;
    }
    try {
      const took = takePolicyFlag(args, i, pf) || takeBrowserFlag(args, i, bf) || takeIsolationFlag(args, i, iso);
      if (took) i += took - 1;
      else if (a === '--json') json = true;
      else if (a === '-i') forwardStdin = true;
      else if (a === '--timeout') {
        const v = optionValue(args, i++);
        const secs = Number(v);
        if (!v.trim() || !(secs >= 0)) return usageError(`invalid --timeout '${v}'`);
        timeoutMs = secs === 0 || secs === Infinity ? undefined : secs * 1000;
      } else if (a === '--cwd') cwd = optionValue(args, i++);
      else if (a === '--env') {
        const kv = optionValue(args, i++);
        const eq = kv.indexOf('=');
        if (eq <= 0) return usageError(`--env needs K=V, got '${kv}'`);
        env[kv.slice(0, eq)] = kv.slice(eq + 1);
      } else if (a === '--state') state = optionValue(args, i++);
      else if (a === '--mount') {
        const m = parseMount(optionValue(args, i++));
        if (!m) return usageError(`--mount needs HOST:VM or HOST:VM:ro, got '${args[i]}'`);
        mounts[m.vm] = m.spec;
      } else if (a === '--publish') {
        const v = optionValue(args, i++);
        const p = parsePublish(v);
        if (!p) return usageError(`--publish needs HOST_PORT:VM_PORT (each 1-65535), got '${v}'`);
        publish.push(p);
      } else if (a.startsWith('-')) return usageError(`unknown option '${a}'`);
      else break;
    } catch (e) {
      return usageError((e as Error).message);
    }
  }
  const script = args.slice(i).join(' ');
  if (!script) return usageError('missing SCRIPT');
  try {
    finishPolicy(pf);
  } catch (e) {
    return usageError((e as Error).message);
  }
  const stdin = forwardStdin ? readFileSync(0) : undefined;
  if (bf.browser && (state !== undefined || Object.keys(mounts).length)) return usageError('--state and --mount need the Node host (not --browser)');
  if (bf.browser && iso.given) return usageError('--isolation is for the Node host (with --browser, Chromium isolates the VM)');
  if (bf.browser && publish.length) return usageError('--publish needs the Node host (not --browser)');
  const options = { env, ...policyOptions(pf) };
  const vm: VM = bf.browser ? await newBrowserVM(bf, options) : new AgentVM({ ...options, state, mounts, isolation: iso.isolation });
  await vm.start();
  try {
    for (const p of publish) {
      try {
        await vm.expose!(p.vm, { hostPort: p.host });
      } catch (e) {
        process.stderr.write(`agentos exec: --publish ${p.host}:${p.vm}: ${(e as Error).message}\n`);
        return 125;
      }
    }
    const r = await withDeadline(vm.execBytes(script, { stdin, timeoutMs, cwd }), timeoutMs);
    const dec = new TextDecoder();
    if (json) {
      const out = { stdout: dec.decode(r.stdout), stderr: dec.decode(r.stderr), exitCode: r.exitCode, timedOut: r.timedOut, truncated: r.truncated === true };
      process.stdout.write(JSON.stringify(out) + '\n');
    } else {
      process.stdout.write(r.stdout);
      process.stderr.write(r.stderr);
      if (r.truncated) process.stderr.write('agentos exec: output past the limit was dropped (--max-output)\n');
    }
    return r.exitCode;
  } finally {
    await stopVm(vm, pf);
  }
}

/** `HOST_PORT:VM_PORT`, each a port number; null when malformed. */
function parsePublish(v: string): { host: number; vm: number } | null {
  const m = /^(\d{1,5}):(\d{1,5})$/.exec(v);
  if (!m) return null;
  const [host, vm] = [Number(m[1]), Number(m[2])];
  return host >= 1 && host <= 65535 && vm >= 1 && vm <= 65535 ? { host, vm } : null;
}

/** How long past --timeout the VM has to end the command (SIGINT, SIGKILL a second later, then the shell) before agentos gives up on it. */
const DEADLINE_GRACE_MS = 5000;

/**
 * The exec's result, or — if the VM has not ended the timed-out command
 * DEADLINE_GRACE_MS after --timeout (a kernel too busy to answer) — exit 124
 * at once: ending this process ends the VM's workers with it.
 */
function withDeadline<T>(run: Promise<T>, timeoutMs: number | undefined): Promise<T> {
  if (timeoutMs === undefined) return run;
  let timer: LongTimeout | undefined;
  const deadline = new Promise<never>(() => {
    timer = longTimeout(() => {
      process.stderr.write('agentos exec: the VM did not end the command in time; stopping it\n');
      exitFlushed(124);
    }, timeoutMs + DEADLINE_GRACE_MS);
  });
  return Promise.race([run, deadline]).finally(() => timer?.clear());
}

/** `HOST:VM[:ro]` (the VM path is absolute, so the last ':' before it splits them). */
function parseMount(arg: string): { vm: string; spec: MountSpec } | null {
  const ro = arg.endsWith(':ro');
  const body = ro ? arg.slice(0, -3) : arg;
  const cut = body.lastIndexOf(':/');
  if (cut <= 0) return null;
  return { vm: body.slice(cut + 1), spec: { host: body.slice(0, cut), readOnly: ro } };
}

async function shellCommand(args: string[]): Promise<number> {
  let state: string | undefined;
  const pf = newPolicyFlags();
  const bf = newBrowserFlags();
  const iso = newIsolationFlag();
  for (let i = 0; i < args.length; i++) {
    try {
      const took = takePolicyFlag(args, i, pf) || takeBrowserFlag(args, i, bf) || takeIsolationFlag(args, i, iso);
      if (took) i += took - 1;
      else if (args[i] === '--state') state = optionValue(args, i++);
      else return usageError(`shell: unexpected '${args[i]}'`);
    } catch (e) {
      return usageError(`shell: ${(e as Error).message}`);
    }
  }
  try {
    finishPolicy(pf);
  } catch (e) {
    return usageError((e as Error).message);
  }
  if (bf.browser && state !== undefined) return usageError('shell: --state needs the Node host (not --browser)');
  if (bf.browser && iso.given) return usageError('shell: --isolation is for the Node host (with --browser, Chromium isolates the VM)');
  const vm: VM = bf.browser ? await newBrowserVM(bf, policyOptions(pf)) : new AgentVM({ state, ...policyOptions(pf), isolation: iso.isolation });
  await vm.start();
  if (process.stdin.isTTY) return terminalSession(vm);
  try {
    return vm.spawn ? await scriptSession(await vm.spawn(['/bin/bash', '-s'])) : await bufferedScript(vm);
  } finally {
    await stopVm(vm, pf);
  }
}

/**
 * stdin is not a terminal: the VM's `bash -s` reads it as a script, as it
 * arrives (loops and here-documents span lines; no prompts), its output
 * flows back as it comes, and its status is agentos's.
 */
async function scriptSession(p: SpawnedProcess): Promise<number> {
  const copy = async (from: AsyncIterable<Uint8Array>, to: NodeJS.WriteStream) => {
    for await (const b of from) if (!to.write(b)) await once(to, 'drain');
  };
  const output = Promise.all([copy(p.stdout, process.stdout), copy(p.stderr, process.stderr)]);
  void (async () => {
    try {
      for await (const chunk of process.stdin) await p.write(new Uint8Array(chunk as Buffer));
    } catch {
      // The shell is gone (it ran `exit`): the rest of the input is not read.
    }
    await p.closeStdin().catch(() => {});
  })();
  const status = await p.wait();
  await output;
  process.stdin.destroy();
  return status;
}

/** The same in a VM without process streams (a browser's): the whole input first, then one run. */
async function bufferedScript(vm: VM): Promise<number> {
  const stdin = readFileSync(0);
  vm.on('output', (c) => (c.stream === 'stdout' ? process.stdout : process.stderr).write(c.data));
  return (await vm.execBytes('bash -s', { stdin })).exitCode;
}

/**
 * The VM's shell on this terminal: the host terminal goes raw (the VM's line
 * discipline does the cooking), bytes flow both ways, resizes follow.
 */
async function terminalSession(vm: VM): Promise<number> {
  const out = process.stdout;
  const term = await vm.openTerminal({ cols: out.columns, rows: out.rows });
  term.onData((b) => out.write(b));
  const input = (b: Buffer) => term.write(new Uint8Array(b));
  const resize = () => term.resize(out.columns, out.rows);
  process.stdin.setRawMode(true);
  process.stdin.on('data', input);
  process.stdin.resume();
  out.on('resize', resize);
  try {
    return await term.exited;
  } finally {
    out.off('resize', resize);
    process.stdin.off('data', input);
    process.stdin.setRawMode(false);
    process.stdin.pause();
    await vm.sync();
    await vm.stop();
  }
}

async function snapshotCommand(args: string[]): Promise<number> {
  let state: string | undefined;
  const iso = newIsolationFlag();
  for (;;) {
    let took: number;
    try {
      took = takeIsolationFlag(args, 0, iso);
      if (!took && args[0] === '--state') {
        state = optionValue(args, 0);
        took = 2;
      }
    } catch (e) {
      return usageError(`snapshot: ${(e as Error).message}`);
    }
    if (!took) break;
    args = args.slice(took);
  }
  const [op, a, b] = args;
  const need = { create: 1, list: 0, restore: 1, delete: 1, export: 2, import: 1 }[op as 'list'];
  if (need === undefined) return usageError(`snapshot: unknown operation '${op ?? ''}'`);
  if ((need >= 1 && !a) || (need === 2 && !b)) return usageError(`snapshot ${op}: missing argument`);
  const vm = new AgentVM({ state, isolation: iso.isolation });
  await vm.start();
  try {
    if (op === 'create') await vm.snapshot(a);
    else if (op === 'restore') await vm.restore(a);
    else if (op === 'delete') await vm.snapshots.delete(a);
    else if (op === 'export') writeFileSync(b, await vm.snapshots.export(a));
    else if (op === 'import') await vm.snapshots.import(b ?? basename(a).replace(/\.aosnap$/, ''), readFileSync(a));
    else {
      for (const s of await vm.snapshots.list()) {
        process.stdout.write(`${s.name}\t${s.bytes}\t${new Date(s.mtimeMs).toISOString()}\n`);
      }
    }
    return 0;
  } catch (e) {
    process.stderr.write(`agentos snapshot: ${(e as Error).message}\n`);
    return 1;
  } finally {
    await vm.stop();
  }
}

// A reader that goes away (`agentos exec ... | head`) ends agentos quietly, as it would `cat`.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(141);
  throw e;
});

/** Exit once stdout and stderr are flushed: writes to a pipe are asynchronous, and exit() would cut them short. */
function exitFlushed(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

async function repairCommand(args: string[]): Promise<number> {
  if (args[0] !== '--state' || args.length !== 2) return usageError('repair: usage: agentos repair --state DIR');
  let state: string;
  try {
    state = optionValue(args, 0);
  } catch (e) {
    return usageError(`repair: ${(e as Error).message}`);
  }
  try {
    const r = await AgentVM.repair(state);
    if (!r.damage) {
      process.stdout.write(`agentos repair: the layer in ${r.where} is intact; nothing was changed\n`);
      return 0;
    }
    process.stdout.write(
      `agentos repair: the ${r.damage.part} was damaged at ${r.damage.at} (${r.damage.reason}).\n` +
      `The layer now holds the ${r.commitsKept} commit(s) before the damage; ${r.commitsSetAside} later commit(s) were set aside.\n` +
      `The damaged files are kept in ${r.keptAs}\n`,
    );
    return 0;
  } catch (e) {
    process.stderr.write(`agentos repair: ${(e as Error).message}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => exitFlushed(code),
  (e) => {
    process.stderr.write(`agentos: ${(e as Error)?.message ?? e}\n`);
    exitFlushed(1);
  },
);
