// cc, clang, c++, clang++: the compiler driver of the clang package.
//
// LLVM is one WASI program here (libexec/llvm, a multicall binary that picks
// its tool by argv[0]), and WASI cannot start processes, so this driver asks
// clang for its plan (`-###`) and runs each step — cc1, wasm-ld — as an
// agentOS process. Two adjustments: paths are made absolute first (LLVM's libc
// resolves relative paths from "/", not from the cwd), and executables are
// linked with lib/agentos-pwd.o, which starts a program's libc in the cwd
// (decision 0013).

import { SysError } from '../../src/abi/errno.js';
import { WEXITSTATUS, WIFEXITED, WTERMSIG } from '../../src/abi/wait.js';
import type { AgentosApi } from '../../src/runtimes/js/api.js';

/** Options whose value is the next argument and names a file or directory. */
const PATH_VALUE = new Set(['-o', '-I', '-L', '-include', '-imacros', '-isystem', '-iquote', '-idirafter', '-MF', '-isysroot']);
/** Options whose value is the next argument and is not a path. */
const OTHER_VALUE = new Set(['-x', '-target', '--target', '-MT', '-MQ', '-D', '-U', '-Xlinker', '-Xclang', '-mllvm', '-e', '-arch', '-z']);
/** Joined forms (-Idir, -Ldir, -ofile) that carry a path. */
const PATH_PREFIX = ['-I', '-L', '-o'];
/** Asked of clang directly: they run no compilation. */
const DIRECT = new Set(['-###', '--version', '-help', '--help', '--help-hidden', '-dumpversion', '-print-targets']);

export default async function main(os: AgentosApi): Promise<void> {
  const [self, ...args] = os.argv;
  const pkg = os.sys.realpath(self).replace(/\/libexec\/[^/]*$/, '');
  const llvm = `${pkg}/libexec/llvm`;
  const sysroot = `${pkg}/share/sysroot`;
  const tool = /\+\+$/.test(self) ? 'clang++' : 'clang';
  const cwd = os.sys.getcwd();
  const flags = [`--sysroot=${sysroot}`, `-resource-dir=${sysroot}`, ...absolute(args, cwd)];
  try {
    if (args.length === 0 || args.some((a) => DIRECT.has(a))) os.exit(run(os, llvm, [tool, ...flags]));
    const [status, output] = plan(os, llvm, [tool, '-###', ...flags]);
    const commands = output.filter((l) => l.startsWith(' "')).map(unquote);
    const verbose = args.includes('-v');
    for (const line of output) {
      if (verbose || (!line.startsWith(' "') && /\b(error|warning|note):/.test(line))) os.eprint(`${line}\n`);
    }
    if (status !== 0) os.exit(status);
    const temps: string[] = [];
    try {
      for (const [i, cmd] of commands.entries()) {
        if (cmd[0] === '') cmd.shift(); // an in-process cc1: "" "clang" "-cc1" ...
        cmd[0] = cmd[0].replace(/^.*\//, '');
        // Outputs clang names itself (x.o for -c, a.out) are relative to the cwd.
        for (const opt of ['-o', '-dumpdir']) {
          const at = cmd.indexOf(opt) + 1;
          if (at > 0 && at < cmd.length) cmd[at] = absolute([cmd[at]], cwd)[0];
        }
        const out = cmd[cmd.indexOf('-o') + 1];
        if (i < commands.length - 1 && out?.startsWith('/tmp/')) temps.push(out);
        const linking = cmd[0] === 'wasm-ld';
        if (linking) withPwd(cmd, `${pkg}/lib/agentos-pwd.o`);
        const st = run(os, llvm, cmd);
        if (st !== 0) os.exit(st);
        // WASI cannot set a file's mode, so wasm-ld's output is not executable yet.
        if (linking && out) os.sys.chmod(out, 0o777 & ~umask(os));
      }
    } finally {
      for (const t of temps) {
        try {
          os.sys.unlink(t);
        } catch {
          // already gone
        }
      }
    }
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    os.eprint(`${tool}: ${e.message}\n`);
    os.exit(1);
  }
}

/** Run LLVM as `argv[0]` with the driver's stdio; its shell-style status. */
function run(os: AgentosApi, llvm: string, argv: string[]): number {
  const pid = os.sys.spawn({ path: llvm, argv });
  return status(os.sys.waitpid(pid, 0)[1]);
}

/** Run `clang -###`, collecting what it writes to stderr (the plan, and any diagnostics). */
function plan(os: AgentosApi, llvm: string, argv: string[]): [number, string[]] {
  const [r, w] = os.sys.pipe();
  const pid = os.sys.spawn({ path: llvm, argv, fds: [[0, 0], [1, 1], [2, w]] });
  os.sys.close(w);
  const text = new TextDecoder().decode(os.sys.readAll(r));
  os.sys.close(r);
  return [status(os.sys.waitpid(pid, 0)[1]), text.split('\n').filter((l) => l !== '')];
}

function umask(os: AgentosApi): number {
  const mask = os.sys.umask(0);
  os.sys.umask(mask);
  return mask;
}

function status(s: number): number {
  return WIFEXITED(s) ? WEXITSTATUS(s) : 128 + WTERMSIG(s);
}

/** The user's arguments with every path made absolute. */
function absolute(args: string[], cwd: string): string[] {
  const abs = (p: string) => (p.startsWith('/') || p === '-' ? p : `${cwd === '/' ? '' : cwd}/${p}`);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (PATH_VALUE.has(a) && i + 1 < args.length) out.push(a, abs(args[++i]));
    else if (OTHER_VALUE.has(a) && i + 1 < args.length) out.push(a, args[++i]);
    else if (!a.startsWith('-') || a === '-') out.push(abs(a));
    else {
      const prefix = PATH_PREFIX.find((p) => a.startsWith(p) && a.length > p.length);
      out.push(prefix ? prefix + abs(a.slice(prefix.length)) : a);
    }
  }
  return out;
}

/** Link a command with the start-in-PWD object, right after its C runtime start file. */
function withPwd(cmd: string[], obj: string): void {
  const crt = cmd.findIndex((a) => a.endsWith('/crt1-command.o'));
  if (crt >= 0) cmd.splice(crt + 1, 0, obj);
}

/** One line of `clang -###`: space-separated, double-quoted arguments with \\ \" \$ escapes. */
function unquote(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, '$1'));
}
