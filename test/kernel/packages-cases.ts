// Packages and command resolution, one case per rule. Part of the
// kernel suite: runs on the Node host and in Chromium, booted from the base image.

import { DEFAULT_PATH } from '../../src/abi/env.js';
import type { Machine, RunResult } from '../../src/host/api/machine.js';
import { eq, match, ok, rejectsWith } from './expect.js';
import type { SuiteCase } from './suite-types.js';
import { gzip, tar } from './tar-writer.js';

const JS = '/usr/libexec/agentos/js';
const dec = new TextDecoder();
const out = (r: RunResult) => dec.decode(r.stdout);
const err = (r: RunResult) => dec.decode(r.stderr);
/** A JS program printing its argv as JSON. */
const SHOWARGS = `#!${JS}\nagentos.print(JSON.stringify(agentos.argv));\n`;
const SAY = (text: string) => `#!${JS}\nagentos.print(${JSON.stringify(text)} + '\\n');\n`;

const env = (m: Machine, args: string[], cwd = '/home/user') => m.run(['/usr/bin/env', ...args], { cwd });
const sw = (m: Machine, args: string[]) => m.run(['/opt/agentos/bin/agentos-software', ...args], { cwd: '/home/user' });

/** Write a package directory: package.json with `bin`, and files (all executable). */
async function writePackage(m: Machine, dir: string, name: string, version: string, bin: Record<string, string>, files: Record<string, string>): Promise<void> {
  await m.mkdirp(dir);
  await m.writeFile(`${dir}/package.json`, JSON.stringify({ name, version, bin }));
  for (const [path, content] of Object.entries(files)) {
    await m.mkdirp(`${dir}/${path}`.replace(/\/[^/]*$/, ''));
    await m.writeFile(`${dir}/${path}`, content, 0o755);
  }
}

export const packageCases: SuiteCase[] = [
  {
    name: 'packages: /opt/agentos/bin holds real symlinks into package directories',
    async run(m) {
      const names = (await m.readdir('/opt/agentos/bin')).map((e) => e.name);
      for (const cmd of ['env', 'printenv', 'true', 'false', 'agentos-software']) ok(names.includes(cmd), `${cmd} linked`);
      eq(await m.syscall('readlink', '/opt/agentos/bin/env'), '../coreutils/current/bin/env', 'command link');
      eq(await m.syscall('readlink', '/opt/agentos/coreutils/current'), '0.1.0', 'current pointer');
      eq(await m.syscall('readlink', '/opt/agentos/coreutils/0.1.0/bin/env'), '../libexec/coreutils', 'bin farm');
      eq((await m.syscall('lstat', '/opt/agentos/bin/env') as { mode: number }).mode & 0o170000, 0o120000, 'a symlink');
      eq(await m.syscall('readlink', '/usr/bin/env'), '/opt/agentos/bin/env', '/usr/bin/env');
      match(await m.readText('/etc/passwd'), /^user:x:1000:1000:/m, '/etc/passwd');
      eq((await m.stat('/home/user')).uid, 1000, '/home/user owner');
      eq((await m.stat('/tmp')).mode & 0o7777, 0o1777, '/tmp sticky');
      eq(out(await env(m, [])).includes(`PATH=${DEFAULT_PATH}\n`), true, 'default PATH');
    },
  },
  {
    name: 'resolution: the first executable match wins; /usr/local/bin shadows an agentOS tool',
    async run(m) {
      eq(out(await env(m, ['printenv', 'HOME'])), '/home/user\n', 'the agentOS printenv');
      await m.writeFile('/usr/local/bin/printenv', SAY('shadowed'), 0o755);
      eq(out(await env(m, ['printenv', 'HOME'])), 'shadowed\n', '/usr/local/bin comes first');
      await m.syscall('unlink', '/usr/local/bin/printenv');
      eq(out(await env(m, ['printenv', 'HOME'])), '/home/user\n', 'and the next lookup sees it gone');
    },
  },
  {
    name: 'resolution: an empty PATH element (leading, trailing, ::) means the current directory',
    async run(m) {
      await m.writeFile('/tmp/here', SAY('from cwd'), 0o755);
      for (const path of [':/nonexistent', '/nonexistent:', '/nonexistent::/also-not']) {
        const r = await env(m, [`PATH=${path}`, 'here'], '/tmp');
        eq(out(r), 'from cwd\n', `PATH=${path}`);
      }
      eq((await env(m, ['PATH=/nonexistent', 'here'], '/tmp')).exitCode, 127, 'no empty element, not found');
    },
  },
  {
    name: 'resolution: a non-executable match is EACCES (126) unless a later one runs; not found is 127',
    async run(m) {
      await m.writeFile('/usr/local/bin/tool', SAY('not executable'), 0o644);
      const r = await env(m, ['tool']);
      eq(r.exitCode, 126, 'status');
      eq(err(r), 'env: ‘tool’: Permission denied\n', 'message');
      await m.writeFile('/usr/bin/tool', SAY('the executable one'), 0o755);
      eq(out(await env(m, ['tool'])), 'the executable one\n', 'search continues past EACCES');
      const nf = await env(m, ['no-such-command']);
      eq([nf.exitCode, err(nf)], [127, 'env: ‘no-such-command’: No such file or directory\n'], 'not found');
    },
  },
  {
    name: 'resolution: spawnp searches PATH in the kernel — past ENOENT and EACCES to the first that runs; ENOEXEC stops; a name with / is not searched',
    async run(m) {
      const EXIT = (n: number) => `#!${JS}\nagentos.exit(${n});\n`;
      for (const d of ['a', 'b', 'c']) await m.mkdirp(`/tmp/sp/${d}`);
      await m.writeFile('/tmp/sp/a/tool', EXIT(1), 0o644);
      await m.writeFile('/tmp/sp/b/tool', EXIT(7), 0o755);
      await m.writeFile('/tmp/sp/c/tool', 'echo headerless\n', 0o755);
      const spawnp = (file: string, path: string) => m.syscall('spawnp', { path: file, argv: [file], fds: [] }, path);
      const [pid, path] = await spawnp('tool', '/tmp/sp/none:/tmp/sp/a:/tmp/sp/b/');
      eq(path, '/tmp/sp/b/tool', 'the path that ran');
      eq((await m.syscall('waitpid', pid, 0))[1] >> 8, 7, 'its status');
      await rejectsWith(spawnp('tool', '/tmp/sp/none:/tmp/sp/a'), 'EACCES', 'a non-executable match alone');
      await rejectsWith(spawnp('tool', '/tmp/sp/none:'), 'ENOENT', 'no match (the empty element: the cwd)');
      await rejectsWith(spawnp('tool', '/tmp/sp/c:/tmp/sp/b'), 'ENOEXEC', 'a headerless file stops the search');
      await rejectsWith(spawnp('/tmp/sp/a/tool', '/tmp/sp/b'), 'EACCES', 'a name with / as is');
      await rejectsWith(spawnp('', '/tmp/sp/b'), 'ENOENT', 'an empty name');
    },
  },
  {
    name: 'resolution: no cache — replacing or removing a file is seen on the next lookup',
    async run(m) {
      await m.writeFile('/usr/local/bin/ver', SAY('v1'), 0o755);
      eq(out(await env(m, ['ver'])), 'v1\n', 'first');
      await m.writeFile('/usr/local/bin/ver', SAY('v2'), 0o755);
      eq(out(await env(m, ['ver'])), 'v2\n', 'replaced');
      await m.syscall('unlink', '/usr/local/bin/ver');
      eq((await env(m, ['ver'])).exitCode, 127, 'removed');
    },
  },
  {
    name: 'dispatch: headers pick the runtime — ELF, Mach-O, PE and text are ENOEXEC (the /bin/sh of execvp refuses the binaries, 126, and runs the text), \\0asm runs as WebAssembly',
    async run(m) {
      // An empty module reaches the wasm runtime, which refuses it (no _start) with the same status.
      await m.writeFile('/tmp/wasm', new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), 0o755);
      const w = await env(m, ['/tmp/wasm']);
      eq([w.exitCode, err(w)], [126, '/tmp/wasm: cannot execute: no _start function (not a WASI command)\n'], 'wasm');
      const magics: Record<string, number[]> = {
        elf: [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0],
        macho: [0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1], fat: [0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2],
        pe: [0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0],
      };
      // env's execvp retries ENOEXEC with /bin/sh (bash), which refuses what has a NUL in its first line, as bash does.
      for (const [name, bytes] of Object.entries(magics)) {
        await m.writeFile(`/tmp/${name}`, new Uint8Array(bytes), 0o755);
        const r = await env(m, [`/tmp/${name}`]);
        eq([r.exitCode, err(r)], [126, `/tmp/${name}: /tmp/${name}: cannot execute binary file\n`], name);
      }
      await m.writeFile('/tmp/text', 'echo hello\n', 0o755);
      const t = await env(m, ['/tmp/text']);
      eq([t.exitCode, out(t)], [0, 'hello\n'], 'text runs as a shell script');
    },
  },
  {
    name: 'dispatch: #! passes one unsplit argument; the interpreter is literal, not $PATH-searched',
    async run(m) {
      await m.writeFile('/tmp/showargs', SHOWARGS, 0o755);
      await m.writeFile('/tmp/script', '#!/tmp/showargs  a b  c \nignored\n', 0o755);
      eq(JSON.parse(out(await env(m, ['/tmp/script', 'x']))), ['/tmp/showargs', 'a b  c', '/tmp/script', 'x'], 'argv');
      await m.writeFile('/tmp/bare', '#!printenv\n', 0o755);
      const r = await env(m, ['/tmp/bare']);
      eq([r.exitCode, err(r)], [127, 'env: ‘/tmp/bare’: No such file or directory\n'], 'relative interpreter not searched');
    },
  },
  {
    name: 'dispatch: the #! line is read into 256 bytes — a long argument is cut, a long interpreter refused',
    async run(m) {
      await m.writeFile('/tmp/showargs', SHOWARGS, 0o755);
      await m.writeFile('/tmp/long', `#!/tmp/showargs ${'x'.repeat(400)}\n`, 0o755);
      const argv = JSON.parse(out(await env(m, ['/tmp/long']))) as string[];
      eq(argv[1], 'x'.repeat(256 - '#!/tmp/showargs '.length), 'argument truncated at the buffer');
      await m.writeFile('/tmp/longinterp', `#!/tmp/${'y'.repeat(300)}\n`, 0o755);
      // ENOEXEC; execvp's /bin/sh then runs it as a script whose one line is a comment.
      eq((await env(m, ['/tmp/longinterp'])).exitCode, 0, 'truncated interpreter name is ENOEXEC, then a shell script');
    },
  },
  {
    name: 'dispatch: interpreter chains nest five deep, a sixth level is ELOOP; a missing interpreter is ENOENT',
    async run(m) {
      let prev = JS;
      for (let i = 1; i <= 6; i++) {
        await m.writeFile(`/tmp/chain${i}`, i === 1 ? `#!${prev}\nagentos.print('bottom\\n');\n` : `#!${prev}\n`, 0o755);
        prev = `/tmp/chain${i}`;
      }
      eq(out(await env(m, ['/tmp/chain5'])), 'bottom\n', 'five scripts deep');
      const r = await env(m, ['/tmp/chain6']);
      eq([r.exitCode, err(r)], [126, 'env: ‘/tmp/chain6’: Too many levels of symbolic links\n'], 'six is ELOOP');
      await m.writeFile('/tmp/orphan', '#!/nonexistent/interpreter\n', 0o755);
      eq((await env(m, ['/tmp/orphan'])).exitCode, 127, 'ENOENT, not ENOEXEC');
    },
  },
  {
    name: 'dispatch: runtimes are files — a copied runtime still runs, a renamed script still runs',
    async run(m) {
      const js = await m.readFile(JS);
      await m.writeFile('/tmp/myjs', js, 0o755);
      await m.writeFile('/tmp/prog.txt', `#!/tmp/myjs\nagentos.print('still javascript\\n');\n`, 0o755);
      eq(out(await env(m, ['/tmp/prog.txt'])), 'still javascript\n', 'copy of the runtime, .txt name');
    },
  },
  {
    name: 'multicall: the applet is basename(argv[0]); the blob by its own path selects none',
    async run(m) {
      eq((await m.run(['/opt/agentos/bin/true'])).exitCode, 0, 'true');
      eq((await m.run(['/opt/agentos/bin/false'])).exitCode, 1, 'false');
      const blob = await m.run(['/opt/agentos/coreutils/current/libexec/coreutils']);
      eq(blob.exitCode, 127, 'no applet');
      match(err(blob), /^coreutils: 'coreutils': applet not found/, 'clear error');
    },
  },
  {
    name: 'packages: aliases are symlinks to one file; each name reaches the program as argv[0]',
    async run(m) {
      await writePackage(m, '/home/user/multi', 'multi', '1.0.0', { one: 'prog', two: 'prog' }, {
        prog: `#!${JS}\nconst a = agentos.argv[0]; agentos.print(a.slice(a.lastIndexOf('/') + 1) + '\\n');\n`,
      });
      const r = await sw(m, ['link', '/home/user/multi']);
      eq([r.exitCode, out(r)], [0, 'linked one two\n'], 'link');
      eq(out(await env(m, ['one'])), 'one\n', 'one');
      eq(out(await env(m, ['two'])), 'two\n', 'two');
      const [a, b] = [await m.stat('/opt/agentos/bin/one'), await m.stat('/opt/agentos/bin/two')];
      eq(a.ino, b.ino, 'same file');
      eq((await sw(m, ['unlink', 'one'])).exitCode, 0, 'unlink a command');
      eq((await env(m, ['one'])).exitCode, 127, 'gone');
    },
  },
  {
    name: 'packages: install from a .tgz offline, upgrade re-points current atomically, a name the host repository lacks is refused',
    async run(m) {
      const pkg = (v: string) => tar({
        'package/': '',
        'package/package.json': JSON.stringify({ name: 'demo', version: v, bin: { demo: 'bin.js' } }),
        'package/bin.js': SAY(`demo ${v}`),
      }, { 'package/bin.js': 0o755 });
      await m.writeFile('/tmp/demo-1.0.0.tgz', await gzip(pkg('1.0.0')));
      await m.writeFile('/tmp/demo-2.0.0.tgz', await gzip(pkg('2.0.0')));
      const r1 = await sw(m, ['install', '/tmp/demo-1.0.0.tgz']);
      eq([r1.exitCode, out(r1), err(r1)], [0, 'installed demo 1.0.0\nlinked demo\n', ''], 'install 1.0.0');
      eq(out(await env(m, ['demo'])), 'demo 1.0.0\n', 'runs');
      eq((await sw(m, ['install', '/tmp/demo-2.0.0.tgz'])).exitCode, 0, 'install 2.0.0 beside it');
      eq(out(await env(m, ['demo'])), 'demo 1.0.0\n', 'current unchanged without --upgrade');
      eq((await sw(m, ['upgrade', 'demo', '2.0.0'])).exitCode, 0, 'upgrade');
      eq(await m.syscall('readlink', '/opt/agentos/demo/current'), '2.0.0', 'current → 2.0.0');
      eq(out(await env(m, ['demo'])), 'demo 2.0.0\n', 'new version runs');
      const left = (await m.readdir('/opt/agentos/demo')).map((e) => e.name).filter((n) => n !== '.' && n !== '..');
      eq(left.sort(), ['1.0.0', '2.0.0', 'current'], 'no leftovers of the rename');
      const npm = await sw(m, ['install', 'left-pad']);
      eq(npm.exitCode, 1, 'a name the host repository lacks');
      match(err(npm), /no package 'left-pad' in the repository/, 'says why');
    },
  },
  {
    name: 'packages: link validates names — no /, .., control characters or over-long names',
    async run(m) {
      for (const bad of ['a/b', '..', 'bad\u0001name', 'x'.repeat(300)]) {
        await writePackage(m, '/home/user/bad', 'bad', '1.0.0', { [bad]: 'prog', fine: 'prog' }, { prog: SAY('x') });
        const r = await sw(m, ['link', '/home/user/bad']);
        eq(r.exitCode, 1, `refused ${JSON.stringify(bad).slice(0, 20)}`);
        match(err(r), /invalid command name/, 'message');
        eq((await env(m, ['fine'])).exitCode, 127, 'nothing linked');
      }
    },
  },
  {
    name: 'packages: a guest package may not point outside itself',
    async run(m) {
      await writePackage(m, '/home/user/esc', 'esc', '1.0.0', { esc: '../../../etc/passwd' }, {});
      const r = await sw(m, ['link', '/home/user/esc']);
      eq(r.exitCode, 1, 'entry path escaping');
      match(err(r), /outside the package/, 'message');
      await writePackage(m, '/home/user/esc2', 'esc2', '1.0.0', { esc2: 'tool' }, {});
      await m.syscall('symlink', '/usr/libexec/agentos/js', '/home/user/esc2/tool');
      const r2 = await sw(m, ['link', '/home/user/esc2']);
      eq(r2.exitCode, 1, 'symlink escaping');
      match(err(r2), /outside the package/, 'message');
    },
  },
  {
    name: 'packages: the link count is bounded — a warning near the bound, a typed error past it',
    async run(m) {
      const have = (await m.readdir('/opt/agentos/bin')).length - 2;
      const many = (prefix: string, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 'prog']));
      await writePackage(m, '/home/user/big', 'big', '1.0.0', many('c', 930 - have), { prog: SAY('x') });
      const r = await sw(m, ['link', '/home/user/big']);
      eq(r.exitCode, 0, 'linked');
      match(err(r), /warning: \/opt\/agentos\/bin holds 930 of at most 1024 links/, 'warning');
      await writePackage(m, '/home/user/more', 'more', '1.0.0', many('d', 100), { prog: SAY('x') });
      const r2 = await sw(m, ['link', '/home/user/more']);
      eq(r2.exitCode, 1, 'refused');
      match(err(r2), /link limit reached: \/opt\/agentos\/bin may hold at most 1024 links/, 'names the limit');
    },
  },
  {
    name: 'env: what the host passes in is sanitised like a privileged exec',
    async run(m) {
      const r = await m.run(['/opt/agentos/bin/printenv'], {
        env: { LD_PRELOAD: 'x', LD_LIBRARY_PATH: 'x', DYLD_INSERT_LIBRARIES: 'x', NODE_OPTIONS: '--x', BASH_ENV: '/x', MY_PRELOAD: 'x', PATH: '/evil', KEEP: 'kept' },
      });
      const vars = out(r).trim().split('\n');
      ok(vars.includes('KEEP=kept'), 'ordinary variables pass');
      ok(vars.includes(`PATH=${DEFAULT_PATH}`), 'PATH is the default');
      eq(vars.filter((v) => /^(LD_|DYLD_|NODE_OPTIONS|BASH_ENV|MY_PRELOAD)/.test(v)), [], 'hooks stripped');
    },
  },
];
