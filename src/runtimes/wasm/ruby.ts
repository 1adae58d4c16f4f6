// CRuby as shipped by @ruby/3.4-wasm-wasi (decision 0021). Its ruby.wasm is
// not a WASI command: it is a reactor with CRuby's embedding interface
// (canonical-ABI exports `ruby-init`, `rb-eval-string-protect`, ...) and the
// `js` gem's host imports. The runtime recognises that interface by its
// exports and drives it like ruby's main(): `ruby-init` with the switches
// Ruby itself handles (-I, -r, -w, -E, --enable/--disable), then one
// evaluation that runs the program (-e, a script, or stdin), prints an
// uncaught exception as ruby does and exits with ruby's status.
//
// The standard library is packed into the module (wasi-vfs) under /usr/local.
// Gems are disabled unless asked for (--enable-gems): loading RubyGems costs
// about a second per process, and only bundled gems need it.

import type { ProcessContext } from '../context.js';

const RUBY_INIT = 'ruby-init: func(args: list<string>) -> ()';
const RUBY_EVAL = 'rb-eval-string-protect: func(str: string) -> tuple<handle<rb-abi-value>, s32>';
const EXPORTS = ['_initialize', 'cabi_realloc', 'memory', RUBY_INIT, RUBY_EVAL];

/** Import modules of the embedding interface, besides preview 1: the `js` gem's host and the canonical ABI's resources. */
const JS_HOST = 'rb-js-abi-host';
const CANON = 'canonical_abi';

const USAGE = `Usage: ruby [switches] [--] [programfile] [arguments]
  -e 'command'    one line of script (several -e's allowed)
  -Idirectory     add a directory to $LOAD_PATH
  -rlibrary       require the library before running the program
  -w, -W[level]   warnings
  -Eext[:int]     default external and internal encodings
  -c              check syntax only
  -v              print the version and turn on verbose mode
  --enable-gems   load RubyGems (off by default in agentOS: it costs a second)
  --version       print the version
  -h, --help      this help
With no programfile (or -), the program is read from standard input.
`;

export function isRuby(module: WebAssembly.Module): boolean {
  const names = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
  return EXPORTS.every((n) => names.has(n));
}

/** Imports of a CRuby module that are not preview 1 must be these. */
export function isRubyImport(imp: WebAssembly.ModuleImportDescriptor): boolean {
  return imp.kind === 'function' && (imp.module === JS_HOST || imp.module === CANON);
}

/**
 * The non-WASI imports. Ruby's values handed to the host are plain indices
 * (the host keeps none). The `js` gem has no JavaScript to reach here: the
 * driver refuses to load it, and a call that gets through ends the process.
 */
export function rubyImports(ctx: ProcessContext, module: WebAssembly.Module): WebAssembly.Imports {
  const host: Record<string, () => never> = {};
  for (const i of WebAssembly.Module.imports(module)) {
    if (i.module === JS_HOST) {
      host[i.name] = () => {
        ctx.sys.writeAll(2, `ruby: the js gem is not available in agentOS (${i.name.split(':')[0]})\n`);
        return ctx.exit(1);
      };
    }
  }
  return {
    [JS_HOST]: host,
    [CANON]: {
      'resource_new_rb-abi-value': (raw: number) => raw,
      'resource_get_rb-abi-value': (handle: number) => handle,
      'resource_drop_js-abi-value': () => {},
    },
  };
}

interface Invocation {
  /** Switches for ruby-init (ruby's own option parser). */
  init: string[];
  /** -I and -r, applied by the driver once in the cwd (ruby-init runs with libc's cwd still /). */
  includes: string[];
  requires: string[];
  /** What to run: code from -e, a file, or stdin ('-'). */
  program: { code: string } | { file: string };
  args: string[];
  check: boolean;
  /** Print RUBY_DESCRIPTION first (-v, --version). */
  version: boolean;
  /** Only that (--version, or -v without a program). */
  versionOnly: boolean;
}

/** Run `ruby argv...` on an instance of a CRuby module; never returns (the program exits). */
export function runRuby(ctx: ProcessContext, instance: WebAssembly.Instance): never {
  const inv = parse(ctx, ctx.argv.slice(1));
  const ex = instance.exports as Record<string, (...a: number[]) => number> & { memory: WebAssembly.Memory };
  ex._initialize();
  const abi = new Canonical(ex);
  ex[RUBY_INIT](...abi.strings(['ruby', ...inv.init, '-e_=0', '--', ...inv.args]));
  const status = ex[RUBY_EVAL](...abi.string(driver(inv, ctx.env)));
  // The driver ends with exit!; coming back means it failed before that.
  return ctx.exit(new DataView(ex.memory.buffer).getInt32(status + 4, true) ? 1 : 0);
}

function parse(ctx: ProcessContext, argv: string[]): Invocation {
  const init: string[] = [];
  const includes: string[] = [];
  const requires: string[] = [];
  const code: string[] = [];
  let gems = false;
  let check = false;
  let version = false;
  let versionOnly = false;
  let i = 0;
  const value = (sw: string, rest: string): string => {
    if (rest) return rest;
    if (i + 1 >= argv.length) fail(ctx, `no code specified for ${sw}`);
    return argv[++i];
  };
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    if (a === '-h' || a === '--help') {
      ctx.sys.writeAll(1, USAGE);
      ctx.exit(0);
    }
    if (a === '--version') versionOnly = version = true;
    else if (a === '--enable-gems' || a === '--enable=gems') gems = true;
    else if (a === '--disable-gems' || a === '--disable=gems') gems = false;
    else if (/^--(enable|disable)[-=]/.test(a)) init.push(a);
    else if (a.startsWith('-e')) code.push(value('-e', a.slice(2)));
    else if (a.startsWith('-I')) includes.push(value('-I', a.slice(2)));
    else if (a.startsWith('-r')) requires.push(value('-r', a.slice(2)));
    else if (a.startsWith('-E')) init.push(`-E${value('-E', a.slice(2))}`);
    else if (/^-(w|W[012]?)$/.test(a)) init.push(a);
    else if (a === '-c') check = true;
    else if (a === '-v') {
      version = true;
      init.push('-w');
    } else fail(ctx, `invalid option ${a}  (-h will show valid options) (RuntimeError)`);
  }
  if (!init.some((s) => s.startsWith('-E'))) init.unshift('-EUTF-8');
  init.unshift(gems ? '--enable-gems' : '--disable-gems');
  const common = { init, includes, requires, check, version };
  if (code.length) return { ...common, program: { code: code.join('\n') }, args: argv.slice(i), versionOnly };
  return { ...common, program: { file: argv[i] ?? '-' }, args: argv.slice(i + 1), versionOnly: versionOnly || (version && i >= argv.length) };
}

function fail(ctx: ProcessContext, why: string): never {
  ctx.sys.writeAll(2, `ruby: ${why}\n`);
  return ctx.exit(1);
}

/** A Ruby string literal for any text. */
function lit(s: string): string {
  const escape = (c: string) => {
    const n = c.charCodeAt(0);
    return c === '\\' || c === '"' || c === '#' ? `\\${c}` : n < 0x20 || n === 0x7f ? `\\x${n.toString(16).padStart(2, '0')}` : c;
  };
  return `"${[...s].map(escape).join('')}"`;
}

/**
 * The evaluation that runs the program as ruby's main would: in the process's
 * cwd (libc's starts at /), $0 and __FILE__ as ruby sets them, exceptions
 * printed without the driver's own frames, and exit! with the status (after
 * flushing), since the embedding interface has no ruby_cleanup.
 */
function driver(inv: Invocation, env: string[]): string {
  const pwd = env.find((kv) => kv.startsWith('PWD='))?.slice(4);
  const p = inv.program;
  const [name, source] = 'code' in p
    ? ['-e', lit(p.code)]
    : [p.file, p.file === '-' ? '$stdin.read' : `File.read(${lit(p.file)})`];
  const realpath = 'code' in p || p.file === '-' ? lit(name) : `File.expand_path(${lit(name)})`;
  return `
module Kernel
  alias_method :__agentos_require, :require
  # The js gem needs a JavaScript host; processes need fork/spawn, which WASI lacks.
  private def require(name)
    raise LoadError, "cannot load such file -- #{name} (the js gem needs a JavaScript host, which agentOS's ruby has not)", caller if name == "js" || name.start_with?("js/")
    __agentos_require(name)
  end
  %i[system spawn exec fork \`].each do |m|
    private define_method(m) { |*| raise NotImplementedError, "cannot run a command (#{m}): WASI cannot start processes", caller }
  end
end
def Process.spawn(*) = raise(NotImplementedError, "cannot run a command (Process.spawn): WASI cannot start processes", caller)
begin
  ${pwd ? `Dir.chdir(${lit(pwd)}) rescue nil` : ''}
  driver = 0
  status = begin
    ${inv.version ? 'puts RUBY_DESCRIPTION' : ''}
    ${inv.versionOnly ? 'exit(0)' : ''}
    $0 = ${lit(name)}
    driver = caller(0).size + 1 # this frame, what called it, and Binding#eval
    $LOAD_PATH.unshift(*[${inv.includes.map(lit).join(', ')}].map { |d| File.expand_path(d) })
    [${inv.requires.map(lit).join(', ')}].each { |l| require l }
    ${inv.check ? `RubyVM::InstructionSequence.compile(${source}, ${lit(name)}, ${realpath}, 1)
    puts "Syntax OK"` : `TOPLEVEL_BINDING.eval(${source}, ${lit(name)}, 1)`}
    0
  rescue SystemExit => e
    e.status
  rescue Exception => e
    own = Array(e.backtrace)[0...-driver] || []
    if own.empty? # a syntax error of the program itself: ruby names the program
      first, rest = e.message.split("\n", 2)
      $stderr.write("#{$0}: #{first} (#{e.class})\n#{rest}#{"\n" if rest && !rest.end_with?("\n")}")
    else
      e.set_backtrace(own)
      $stderr.write(e.full_message(highlight: false))
    end
    1
  end
  $stdout.flush rescue nil
  $stderr.flush rescue nil
  exit!(status)
end
`;
}

/** Lowering of strings and lists of strings into the guest's memory (canonical ABI, UTF-8). */
class Canonical {
  private enc = new TextEncoder();
  constructor(private ex: Record<string, (...a: number[]) => number> & { memory: WebAssembly.Memory }) {}

  string(s: string): [number, number] {
    const b = this.enc.encode(s);
    const ptr = this.ex.cabi_realloc(0, 0, 1, b.length);
    new Uint8Array(this.ex.memory.buffer, ptr, b.length).set(b);
    return [ptr, b.length];
  }

  /** ruby-init's list<string>: NUL-terminated, as the C side uses them as argv. */
  strings(list: string[]): [number, number] {
    const arr = this.ex.cabi_realloc(0, 0, 4, list.length * 8);
    list.forEach((s, i) => {
      const [ptr, len] = this.string(`${s}\0`);
      const dv = new DataView(this.ex.memory.buffer);
      dv.setInt32(arr + i * 8, ptr, true);
      dv.setInt32(arr + i * 8 + 4, len, true);
    });
    return [arr, list.length];
  }
}
