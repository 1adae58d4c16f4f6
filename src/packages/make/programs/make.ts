// make [OPTION]... [TARGET]...   Maintain groups of programs (GNU Make 4.3 compatible).
// Reads the makefile (GNUmakefile, makefile or Makefile, or -f FILE), then
// brings the goals up to date, running recipes through /bin/sh with up to
// -j N jobs at once. Sub-makes share the slots through a jobserver pipe.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { installBuiltins } from './builtin.js';
import { Make, MakeFatal, type AssignOp, type Options } from './context.js';
import { JobServer } from './jobserver.js';
import { parseAssignment, readMakefile, evalText } from './read.js';
import { Remake } from './remake.js';
import { findImplicit } from './implicit.js';
import { walkPath } from '../../../libc/execvp.js';
import { strerror } from '../../../abi/errno.js';

const USAGE = `Usage: make [options] [target] ...
Options:
  -b, -m                      Ignored for compatibility.
  -B, --always-make           Unconditionally make all targets.
  -C DIRECTORY, --directory=DIRECTORY
                              Change to DIRECTORY before doing anything.
  -d                          Print debugging information (ignored).
  -e, --environment-overrides
                              Environment variables override makefiles.
  -E STRING, --eval=STRING    Evaluate STRING as a makefile statement.
  -f FILE, --file=FILE, --makefile=FILE
                              Read FILE as a makefile.
  -h, --help                  Print this message and exit.
  -i, --ignore-errors         Ignore errors from recipes.
  -I DIRECTORY, --include-dir=DIRECTORY
                              Search DIRECTORY for included makefiles.
  -j [N], --jobs[=N]          Allow N jobs at once; infinite jobs with no arg.
  -k, --keep-going            Keep going when some targets can't be made.
  -l [N], --load-average[=N]  Ignored (no load average here).
  -n, --just-print, --dry-run, --recon
                              Don't actually run any recipe; just print them.
  -O[TYPE], --output-sync[=TYPE]
                              Ignored (output is not synchronized).
  -q, --question              Run no recipe; exit status says if up to date.
  -r, --no-builtin-rules      Disable the built-in implicit rules.
  -R, --no-builtin-variables  Disable the built-in variable settings.
  -s, --silent, --quiet       Don't echo recipes.
  --no-silent                 Echo recipes (disable --silent mode).
  -S, --no-keep-going, --stop
                              Turns off -k.
  -t, --touch                 Touch targets instead of remaking them.
  -v, --version               Print the version number of make and exit.
  -w, --print-directory       Print the current directory.
  --no-print-directory        Turn off -w, even if it was turned on implicitly.
  --warn-undefined-variables  Warn when an undefined variable is referenced.

This program is agentOS make, compatible with GNU Make 4.3.
`;

const VERSION = `agentOS make 0.1.0, compatible with GNU Make 4.3
This is not GNU Make: it is agentOS's own implementation of its language.
`;

/** Options taking an argument: short letter → long names. */
const WITH_ARG = new Set(['C', 'f', 'I', 'o', 'W', 'E']);
const LONG: Record<string, string> = {
  'always-make': 'B', directory: 'C', 'environment-overrides': 'e', eval: 'E', file: 'f', makefile: 'f', help: 'h',
  'ignore-errors': 'i', 'include-dir': 'I', jobs: 'j', 'keep-going': 'k', 'load-average': 'l', 'max-load': 'l',
  'just-print': 'n', 'dry-run': 'n', recon: 'n', 'old-file': 'o', 'assume-old': 'o', 'output-sync': 'O',
  'print-data-base': 'p', question: 'q', 'no-builtin-rules': 'r', 'no-builtin-variables': 'R', silent: 's', quiet: 's',
  'no-keep-going': 'S', stop: 'S', touch: 't', version: 'v', 'print-directory': 'w', 'what-if': 'W', 'new-file': 'W',
  'assume-new': 'W', 'no-print-directory': 'no-print-directory', 'no-silent': 'no-silent',
  'warn-undefined-variables': 'warn-undefined-variables', 'jobserver-auth': 'jobserver-auth', trace: 'trace', debug: 'debug',
  'check-symlink-times': 'L',
};

interface Cli {
  opts: Options;
  dirs: string[];
  files: string[];
  evals: string[];
  vars: string[];
  goals: string[];
  help: boolean;
  version: boolean;
  jobserver: string | null;
  /** -j given on this command line (not inherited through MAKEFLAGS). */
  jobsHere: boolean;
}

class CliError extends Error {}

function defaults(): Options {
  return {
    dryRun: false, keepGoing: false, silent: false, ignoreErrors: false, alwaysMake: false, question: false, touch: false,
    jobs: 1, envOverrides: false, noBuiltinRules: false, noBuiltinVars: false, printDirectory: null, warnUndefined: false,
    oldFiles: new Set(), newFiles: new Set(),
  };
}

/** Apply one option (short letter or long-only name). */
function apply(cli: Cli, key: string, val: string | undefined, fromEnv: boolean): void {
  const o = cli.opts;
  switch (key) {
    case 'B': o.alwaysMake = true; break;
    case 'C': if (!fromEnv) cli.dirs.push(val!); break;
    case 'e': o.envOverrides = true; break;
    case 'E': cli.evals.push(val!); break;
    case 'f': if (!fromEnv) cli.files.push(val!); break;
    case 'h': cli.help = true; break;
    case 'i': o.ignoreErrors = true; break;
    case 'j': {
      if (val !== undefined && !/^\d+$/.test(val)) throw new CliError(`the '-j' option requires a positive integer argument`);
      o.jobs = val === undefined ? Infinity : Math.max(1, Number(val));
      if (!fromEnv) cli.jobsHere = true;
      break;
    }
    case 'k': o.keepGoing = true; break;
    case 'S': o.keepGoing = false; break;
    case 'n': o.dryRun = true; break;
    case 'q': o.question = true; break;
    case 'r': o.noBuiltinRules = true; break;
    case 'R': o.noBuiltinVars = true; o.noBuiltinRules = true; break;
    case 's': o.silent = true; break;
    case 'no-silent': o.silent = false; break;
    case 't': o.touch = true; break;
    case 'v': cli.version = true; break;
    case 'w': o.printDirectory = true; break;
    case 'no-print-directory': o.printDirectory = false; break;
    case 'warn-undefined-variables': o.warnUndefined = true; break;
    case 'jobserver-auth': cli.jobserver = val ?? null; break;
    case 'o': o.oldFiles.add(val!); break;
    case 'W': o.newFiles.add(val!); break;
    case 'p': throw new CliError('-p (--print-data-base) is not supported by agentOS make');
    default: break; // -b -m (GNU ignores them too), -d --debug --trace (no trace output), -l, -L, -O: accepted, no effect
  }
}

function parseCli(args: string[], cli: Cli, fromEnv: boolean): void {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      for (const rest of args.slice(i + 1)) (parseAssignment(rest) ? cli.vars : cli.goals).push(rest);
      return;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = a.slice(2, eq < 0 ? undefined : eq);
      const hits = Object.keys(LONG).filter((k) => k.startsWith(name));
      const exact = name in LONG ? name : hits.length === 1 || new Set(hits.map((h) => LONG[h])).size === 1 ? hits[0] : undefined;
      if (!exact) throw new CliError(hits.length ? `option '${a}' is ambiguous` : `unrecognized option '${a}'`);
      const key = LONG[exact];
      let val = eq >= 0 ? a.slice(eq + 1) : undefined;
      if (val === undefined && WITH_ARG.has(key)) {
        if (i + 1 >= args.length) throw new CliError(`option '--${exact}' requires an argument`);
        val = args[++i];
      }
      apply(cli, key, val, fromEnv);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const c = a[k];
        if (!'bBCdeEfhiIjklLmnoOpqrRsStvwW'.includes(c)) throw new CliError(`invalid option -- '${c}'`);
        if (WITH_ARG.has(c)) {
          let val = a.slice(k + 1);
          if (val === '') {
            if (i + 1 >= args.length) throw new CliError(`option requires an argument -- '${c}'`);
            val = args[++i];
          }
          apply(cli, c, val, fromEnv);
          break;
        }
        if (c === 'j' || c === 'l' || c === 'O') {
          let val: string | undefined = a.slice(k + 1);
          if (val === '' && c === 'j' && /^\d+$/.test(args[i + 1] ?? '')) val = args[++i];
          apply(cli, c, val === '' ? undefined : val, fromEnv);
          break;
        }
        apply(cli, c, undefined, fromEnv);
      }
      continue;
    }
    (parseAssignment(a) ? cli.vars : cli.goals).push(a);
  }
}

/** MAKEFLAGS from the environment: a leading word of flag letters, options, then `--` and variables. */
function parseMakeflags(text: string, cli: Cli): void {
  const ws = splitFlags(text);
  if (ws.length && !ws[0].startsWith('-') && !parseAssignment(ws[0])) ws[0] = `-${ws[0]}`;
  parseCli(ws, cli, true);
}

/** Split MAKEFLAGS at unescaped blanks (a backslash quotes the next character). */
function splitFlags(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length) {
      cur += s[++i];
      has = true;
    } else if (c === ' ' || c === '\t') {
      if (has) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has) out.push(cur);
  return out;
}

const escapeFlag = (s: string) => s.replace(/([\\ \t])/g, '\\$1');

/** MAKEFLAGS for sub-makes, as GNU make writes it. */
function makeflags(o: Options, vars: string[], js: JobServer | null, printDir: boolean): string {
  let letters = '';
  if (o.alwaysMake) letters += 'B';
  if (o.envOverrides) letters += 'e';
  if (o.ignoreErrors) letters += 'i';
  if (o.keepGoing) letters += 'k';
  if (o.dryRun) letters += 'n';
  if (o.question) letters += 'q';
  if (o.noBuiltinRules) letters += 'r';
  if (o.noBuiltinVars) letters += 'R';
  if (o.silent) letters += 's';
  if (o.touch) letters += 't';
  if (printDir) letters += 'w';
  const longs: string[] = [];
  if (o.jobs !== 1) longs.push(o.jobs === Infinity ? '-j' : `-j${o.jobs}`);
  if (js) longs.push(`--jobserver-auth=${js.auth}`);
  if (o.printDirectory === false) longs.push('--no-print-directory');
  if (o.warnUndefined) longs.push('--warn-undefined-variables');
  let s = letters + (longs.length ? ` ${longs.join(' ')}` : '');
  if (vars.length) s += ` -- ${vars.map(escapeFlag).join(' ')}`;
  return s;
}

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

function run(os: AgentosApi): number {
  const cli: Cli = { opts: defaults(), dirs: [], files: [], evals: [], vars: [], goals: [], help: false, version: false, jobserver: null, jobsHere: false };
  const level = Number(os.env.MAKELEVEL ?? '0') || 0;
  const prog = level > 0 ? `make[${level}]` : 'make';
  try {
    if (os.env.MAKEFLAGS) parseMakeflags(os.env.MAKEFLAGS, cli);
    const envVars = cli.vars.splice(0);
    const envJobs = cli.opts.jobs;
    parseCli(os.argv.slice(1), cli, false);
    cli.vars.unshift(...envVars.filter((v) => !cli.vars.some((c) => parseAssignment(c)?.name === parseAssignment(v)?.name)));
    if (!cli.jobsHere) cli.opts.jobs = envJobs;
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    os.eprint(`${prog}: ${e.message}\n${USAGE}`);
    return 2;
  }
  if (cli.help) {
    os.print(USAGE);
    return 0;
  }
  if (cli.version) {
    os.print(VERSION);
    return 0;
  }
  for (const d of cli.dirs) {
    try {
      os.sys.chdir(d);
    } catch (e) {
      if (!(e instanceof os.SysError)) throw e;
      os.eprint(`${prog}: *** ${d}: ${strerror(e.errno)}.  Stop.\n`);
      return 2;
    }
  }
  const cwd = os.sys.getcwd();
  const printDir = cli.opts.printDirectory ?? (!cli.opts.silent && (level > 0 || cli.dirs.length > 0));
  if (printDir) os.print(`${prog}: Entering directory '${cwd}'\n`);
  const status = runIn(os, cli, level, prog, cwd, printDir);
  if (printDir) os.print(`${prog}: Leaving directory '${cwd}'\n`);
  return status;
}

function runIn(os: AgentosApi, cli: Cli, level: number, prog: string, cwd: string, printDir: boolean): number {
  let js: JobServer | null = null;
  if (cli.jobserver && !cli.jobsHere) {
    js = JobServer.attach(os.sys, cli.jobserver);
    if (!js && cli.opts.jobs !== 1) {
      os.eprint(`${prog}: warning: jobserver unavailable: using -j1.  Add '+' to parent make rule.\n`);
      cli.opts.jobs = 1;
    }
  } else if (cli.opts.jobs > 1 && cli.opts.jobs !== Infinity) js = JobServer.create(os.sys, cli.opts.jobs);
  for (let attempt = 0; ; attempt++) {
    const mk = new Make(os, cli.opts);
    mk.prog = prog;
    mk.level = level;
    try {
      setup(mk, os, cli, level, cwd, js, printDir);
      const makefiles = cli.files.length ? cli.files : [['GNUmakefile', 'makefile', 'Makefile'].find((n) => exists(os, n)) ?? ''];
      for (const f of makefiles) {
        if (f === '') continue;
        if (!readMakefile(mk, f === '-' ? '/dev/stdin' : f)) {
          os.eprint(`${prog}: ${f}: No such file or directory\n`);
          mk.missingIncludes.push({ name: f, loc: { file: '', line: 0 } });
        }
      }
      for (const e of cli.evals) evalText(mk, e);
      if (mk.missingIncludes.length) {
        const remade = remakeMakefiles(mk, js);
        if (remade === 'failed') return 2;
        if (remade === 'again' && attempt < 3) continue;
      }
      const def = mk.value('.DEFAULT_GOAL').trim();
      const goals = cli.goals.length ? cli.goals : def ? [def] : [];
      if (!goals.length) {
        mk.fatal(makefiles[0] === '' ? 'No targets specified and no makefile found' : 'No targets', null);
      }
      return new Remake(mk, js).run(goals);
    } catch (e) {
      // A makefile that includes itself or a function that calls itself forever: stop cleanly.
      if (e instanceof RangeError) {
        os.eprint(`${prog}: *** recursion too deep (an include or a function that never ends).  Stop.\n`);
        return 2;
      }
      if (!(e instanceof MakeFatal)) throw e;
      os.eprint(e.loc && e.loc.file ? `${e.loc.file}:${e.loc.line}: *** ${e.message}.  Stop.\n` : `${prog}: *** ${e.message}.  Stop.\n`);
      return 2;
    }
  }
}

function exists(os: AgentosApi, name: string): boolean {
  try {
    os.sys.stat(name);
    return true;
  } catch {
    return false;
  }
}

/** Included makefiles that were missing: make them if a rule can, then read everything again. */
function remakeMakefiles(mk: Make, js: JobServer | null): 'again' | 'failed' {
  // A missing makefile that some rule can make is made quietly; the others are reported first.
  for (const m of mk.missingIncludes) {
    if (m.loc.file && !mk.files.get(m.name)?.isTarget && !findImplicit(mk, m.name)) mk.err(`${m.loc.file}:${m.loc.line}: ${m.name}: No such file or directory\n`);
  }
  const names = mk.missingIncludes.map((m) => m.name);
  const status = new Remake(mk, js).run(names);
  return status === 0 ? 'again' : 'failed';
}

function setup(mk: Make, os: AgentosApi, cli: Cli, level: number, cwd: string, js: JobServer | null, printDir: boolean): void {
  installBuiltins(mk);
  const g = mk.globals;
  for (const [k, v] of Object.entries(os.env)) {
    if (k === 'SHELL' || k === 'MAKEFLAGS' || k === 'MAKELEVEL' || k === 'MFLAGS') continue;
    g.vars.set(k, { value: v, flavor: 'recursive', origin: cli.opts.envOverrides ? 'environment override' : 'environment' });
  }
  const cmd = commandName(os, cwd);
  mk.setSimple(g, 'MAKE_COMMAND', cmd, 'default');
  g.vars.set('MAKE', { value: '$(MAKE_COMMAND)', flavor: 'recursive', origin: 'default' });
  mk.setSimple(g, 'MAKE_VERSION', '4.3', 'default');
  mk.setSimple(g, 'MAKE_HOST', 'x86_64-pc-linux-gnu', 'default');
  mk.setSimple(g, 'CURDIR', cwd, 'file');
  mk.setSimple(g, 'SHELL', '/bin/sh', 'file');
  mk.setSimple(g, '.SHELLFLAGS', '-c', 'default');
  mk.setSimple(g, 'MAKELEVEL', String(level), 'environment');
  mk.setSimple(g, 'MAKEFILE_LIST', '', 'file');
  mk.setSimple(g, 'MAKECMDGOALS', cli.goals.join(' '), 'default');
  mk.setSimple(g, '.FEATURES', 'target-specific order-only second-expansion else-if shortest-stem undefine oneshell nocomment grouped-target extra-prereqs jobserver check-symlink', 'default');
  g.vars.set('MAKEFLAGS', { value: makeflags(cli.opts, cli.vars, js, printDir), flavor: 'recursive', origin: 'file', exported: true });
  for (const v of cli.vars) {
    const a = parseAssignment(v)!;
    mk.assign(g, a.name, a.op as AssignOp, a.value, 'command line');
  }
}

/**
 * $(MAKE_COMMAND): how make was invoked. A script's argv[0] is its resolved
 * path; when $PATH finds that same file by its base name, the user typed the
 * base name, and that is what GNU make would see.
 */
function commandName(os: AgentosApi, cwd: string): string {
  const argv0 = os.argv[0] ?? 'make';
  if (!argv0.includes('/')) return argv0;
  const base = argv0.slice(argv0.lastIndexOf('/') + 1);
  try {
    const env = Object.entries(os.env).map(([k, v]) => `${k}=${v}`);
    const found = walkPath(base, env, (p) => {
      os.sys.access(p, 1);
      return os.sys.realpath(p);
    });
    if (found === os.sys.realpath(argv0)) return base;
  } catch {
    // Not on $PATH: keep the path.
  }
  return argv0.startsWith('/') ? argv0 : `${cwd}/${argv0}`;
}
