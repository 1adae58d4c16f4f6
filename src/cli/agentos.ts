// The `agentos` command (Node host). The shell issue adds an interactive shell and `exec`;
// until then it boots a VM, runs programs in it and reports its state.

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { boot } from '../host/node/index.js';

const USAGE = `Usage: agentos COMMAND [ARGS...]

Boot an agentOS virtual machine in this Node process and use it.

Commands:
  status                  boot, print the kernel's state (processes, workers, mounts) as JSON
  run FILE.js [ARG...]    copy a JavaScript program into the VM and run it; its stdout, stderr
                          and exit status become agentos's own (stdin is passed through)
  help                    show this help

The program runs on agentOS's JavaScript runtime with an \`agentos\` object in scope
(argv, env, sys: the syscall interface, print, exit).`;

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === 'help' || cmd === '--help' || cmd === '-h') {
    process.stdout.write(USAGE + '\n');
    return cmd ? 0 : 2;
  }
  if (cmd === 'status') {
    const m = await boot();
    try {
      process.stdout.write(JSON.stringify(await m.status(), null, 2) + '\n');
    } finally {
      await m.stop();
    }
    return 0;
  }
  if (cmd === 'run') {
    const [file, ...args] = rest;
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
    const m = await boot();
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`agentos: ${(e as Error)?.message ?? e}\n`);
    process.exit(1);
  },
);
