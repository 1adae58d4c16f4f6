// CRuby (the ruby package, dist/ruby/) inside agentOS: run on the Node host by
// ruby.test.ts (one machine) and in Chromium by e2e/wasm.spec.ts (the first
// case installs the package into its fresh machine).

import type { Machine } from '../../../src/host/api/machine.js';
import { eq, match, ok } from '../../kernel/expect.js';
import type { SuiteCase } from '../../kernel/suite-types.js';
import { installPackage } from './packages.js';

const dec = new TextDecoder();

/** Install the package unless this machine has it. */
async function ensureRuby(m: Machine): Promise<void> {
  const r = await m.run(['/bin/sh', '-c', 'command -v ruby']);
  if (r.exitCode !== 0) await installPackage(m, 'ruby');
}

/** A script in the user's shell, in /home/user; stdin from `input` if given. */
async function sh(m: Machine, script: string, input?: string): Promise<{ out: string; err: string; code: number }> {
  await ensureRuby(m);
  const r = await m.run(['/bin/sh', '-c', script], {
    cwd: '/home/user', uid: 1000, env: { PWD: '/home/user' }, ...(input === undefined ? {} : { stdin: input }),
  });
  return { out: dec.decode(r.stdout), err: dec.decode(r.stderr), code: r.exitCode };
}

export const rubyCases: SuiteCase[] = [
  {
    name: 'ruby: ruby -e reads the VM\'s files (/etc/hostname)',
    async run(m) {
      const r = await sh(m, `ruby -e 'puts File.read("/etc/hostname")'`);
      const hostname = await m.readText('/etc/hostname');
      ok(hostname.length > 1, 'the VM has a hostname');
      eq(r, { out: hostname.endsWith('\n') ? hostname : `${hostname}\n`, err: '', code: 0 }, 'ruby -e');
    },
  },
  {
    name: 'ruby: files ruby writes are the shell\'s, and the other way round; relative paths from the cwd',
    async run(m) {
      const r = await sh(m, [
        'mkdir -p rb && cd rb && echo "from the shell" > in.txt',
        `ruby -e 'puts Dir.pwd; File.write("out.txt", File.read("in.txt").upcase); File.open("log", "a") { |f| f.puts "appended" }'`,
        'cat out.txt log; ls',
      ].join(' && '));
      eq(r, { out: '/home/user/rb\nFROM THE SHELL\nappended\nin.txt\nlog\nout.txt\n', err: '', code: 0 }, 'round trip');
    },
  },
  {
    name: 'ruby: ruby script.rb args: ARGV, $0, __FILE__, require_relative and the standard library',
    async run(m) {
      await sh(m, 'mkdir -p proj');
      await m.writeFile('/home/user/proj/util.rb', 'def twice(x) = x * 2\n');
      await m.writeFile('/home/user/proj/main.rb', [
        'require_relative "util"',
        'require "json"',
        'require "set"',
        'puts JSON.generate({ "args" => ARGV, "zero" => $0, "main" => __FILE__ == $0 })',
        'puts twice(21), Set[1, 1, 2].size',
      ].join('\n'));
      const r = await sh(m, 'ruby proj/main.rb one "two words"');
      eq(r, { out: '{"args":["one","two words"],"zero":"proj/main.rb","main":true}\n42\n2\n', err: '', code: 0 }, 'script');
    },
  },
  {
    name: 'ruby: stdin: data through a pipe, the program itself from stdin, and lines answered as they come',
    async run(m) {
      const data = await sh(m, `printf 'b\\na\\n' | ruby -e 'puts $stdin.readlines.map(&:chomp).sort.join(",")'`);
      eq(data, { out: 'a,b\n', err: '', code: 0 }, 'a pipe');
      const prog = await sh(m, 'ruby - x y', 'p ARGV, $0\n');
      eq(prog, { out: '["x", "y"]\n"-"\n', err: '', code: 0 }, 'program on stdin');
      const lines = await sh(m, `ruby -e 'while (l = gets) do puts l.to_i * 2 end'`, '1\n2\n3\n');
      eq(lines.out, '2\n4\n6\n', 'gets');
    },
  },
  {
    name: 'ruby: exit statuses, uncaught exceptions and syntax errors as ruby reports them',
    async run(m) {
      eq((await sh(m, `ruby -e 'exit 3'`)).code, 3, 'exit 3');
      eq((await sh(m, `ruby -e 'exit false'`)).code, 1, 'exit false');
      const boom = await sh(m, `ruby -e 'def f = raise("boom")' -e 'f'`);
      eq(boom, { out: '', err: "-e:1:in 'Object#f': boom (RuntimeError)\n\tfrom -e:2:in '<main>'\n", code: 1 }, 'raise');
      const abort = await sh(m, `ruby -e '$stdout.print "out "; abort "bad thing"'`);
      eq(abort, { out: 'out ', err: 'bad thing\n', code: 1 }, 'abort flushes stdout, says why');
      const syntax = await sh(m, `ruby -e 'puts 1 +'`);
      eq(syntax.code, 1, 'syntax error status');
      match(syntax.err, /^-e: -e:1: syntax errors? found \(SyntaxError\)\n/, 'syntax error message');
      eq(await sh(m, `ruby -c -e 'puts 1'`), { out: 'Syntax OK\n', err: '', code: 0 }, '-c');
    },
  },
  {
    name: 'ruby: in pipelines with the environment; options: -v, --version, -I/-r, unknown ones',
    async run(m) {
      const pipe = await sh(m, `FOO=bar ruby -e 'puts ENV["FOO"]; 3.times { |i| puts i }' | wc -l`);
      eq(pipe, { out: '4\n', err: '', code: 0 }, 'pipeline');
      // The program's text reaches ruby as is: quotes, backslashes, interpolation, a newline.
      const odd = await sh(m, `ruby -e 'puts "t\\t#{1 + 1}\\"q\\"" + %q(\\n)
p 2'`);
      eq(odd.out, 't\t2"q"\\n\n2\n', 'odd characters in -e');
      const v = await sh(m, 'ruby --version');
      match(v.out, /^ruby 3\.4\.\d+ .*\[wasm32-wasi\]\n$/, '--version');
      await sh(m, 'mkdir -p lib && echo "GREETING = :hi" > lib/greet.rb');
      eq((await sh(m, `ruby -I lib -rgreet -e 'p GREETING'`)).out, ':hi\n', '-I and -r');
      const bad = await sh(m, 'ruby -Z');
      eq(bad.code, 1, 'unknown switch status');
      match(bad.err, /^ruby: invalid option -Z/, 'unknown switch message');
    },
  },
  {
    name: 'ruby: confined: only the VFS (.. stops at its root, host paths absent); no js gem, no processes, each said so',
    async run(m) {
      const fs = await sh(m, `ruby -e 'p File.read("/../../../etc/hostname") == File.read("/etc/hostname"), File.exist?("/work"), File.exist?("/home/node")'`);
      eq(fs, { out: 'true\nfalse\nfalse\n', err: '', code: 0 }, 'paths');
      const js = await sh(m, `ruby -e 'require "js"'`);
      eq(js.code, 1, 'js gem status');
      match(js.err, /^-e:1:in '<main>': cannot load such file -- js \(the js gem needs a JavaScript host/, 'js gem refused');
      for (const call of ['system("ls")', '`ls`', 'spawn("ls")', 'Process.spawn("ls")']) {
        const r = await sh(m, `ruby -e '${call}'`);
        eq(r.code, 1, `${call}: status`);
        match(r.err, /cannot run a command \(.+\): WASI cannot start processes \(NotImplementedError\)/, call);
      }
    },
  },
];
