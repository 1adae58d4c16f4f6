// tar's command line: GNU's old style (`tar xzf a.tgz`: the first word is a
// cluster of letters whose arguments follow in order), getopt-style options,
// and operands kept in place among the options because -C applies to the
// names after it.

import { parseArgs, UsageError, type OptSpec } from '../../../userland/lib/args.js';
import type { Format } from './header.js';
import { quoteArg } from './quote.js';

export type Mode = 'c' | 'x' | 't' | 'r' | 'u';

/**
 * In command-line order: a file operand, a -C directory change, a -T list of
 * names, an --exclude pattern or -X file of patterns (positional when creating).
 */
export type Arg =
  | { name: string }
  | { dir: string }
  | { list: string }
  | { exclude: string }
  /** `patterns`: the file's lines, once read. */
  | { excludeFrom: string; patterns?: string[] };

export interface TarOptions {
  mode: Mode | null;
  archive: string;
  /** 'gzip', or the name of a compressor agentOS does not have (bzip2, xz, ...). */
  compress: string | null;
  autoCompress: boolean;
  verbose: number;
  samePermissions: boolean | null;
  sameOwner: boolean | null;
  numericOwner: boolean;
  owner: string | null;
  group: string | null;
  old: 'overwrite' | 'keep' | 'skip';
  toStdout: boolean;
  /** Exclusion patterns in force (for -t/-x, all of them; -c/-r/-u gather them in order). */
  excludes: string[];
  strip: number;
  nullNames: boolean;
  dereference: boolean;
  absoluteNames: boolean;
  touch: boolean;
  sort: 'none' | 'name';
  format: Format;
  blocking: number;
  ignoreZeros: boolean;
  wildcards: boolean | null;
  fullTime: boolean;
  removeFiles: boolean;
  totals: boolean;
  args: Arg[];
}

/** A usage error tar reports with argp's "Try" line and status 64, or (`status` 2) its own checks. */
export class TarUsage extends Error {
  constructor(
    message: string,
    readonly status = 64,
    readonly tryLine = true,
  ) {
    super(message);
  }
}

export type Info = 'help' | 'usage' | 'version';

const MODES = 'Acdtrux';

const SPEC: OptSpec = {
  short: 'AcdtruxC:f:zjJZavpkOT:X:hPmH:b:iw',
  operandsInOrder: true,
  long: {
    create: ['c', 'none'], extract: ['x', 'none'], get: ['x', 'none'], list: ['t', 'none'], append: ['r', 'none'],
    update: ['u', 'none'], catenate: ['A', 'none'], concatenate: ['A', 'none'], diff: ['d', 'none'], compare: ['d', 'none'],
    delete: ['delete', 'none'],
    directory: ['C', 'required'], file: ['f', 'required'],
    gzip: ['z', 'none'], gunzip: ['z', 'none'], ungzip: ['z', 'none'], bzip2: ['j', 'none'], xz: ['J', 'none'],
    compress: ['Z', 'none'], uncompress: ['Z', 'none'], zstd: ['zstd', 'none'], lzip: ['lzip', 'none'], lzma: ['lzma', 'none'],
    'auto-compress': ['a', 'none'],
    verbose: ['v', 'none'],
    'preserve-permissions': ['p', 'none'], 'same-permissions': ['p', 'none'], 'no-same-permissions': ['no-same-permissions', 'none'],
    'same-owner': ['same-owner', 'none'], 'no-same-owner': ['no-same-owner', 'none'], 'numeric-owner': ['numeric-owner', 'none'],
    owner: ['owner', 'required'], group: ['group', 'required'],
    'keep-old-files': ['k', 'none'], 'skip-old-files': ['skip-old-files', 'none'], overwrite: ['overwrite', 'none'],
    'to-stdout': ['O', 'none'],
    exclude: ['exclude', 'required'], 'exclude-from': ['X', 'required'],
    'strip-components': ['strip-components', 'required'],
    'files-from': ['T', 'required'], null: ['null', 'none'], 'no-null': ['no-null', 'none'],
    dereference: ['h', 'none'], 'absolute-names': ['P', 'none'], touch: ['m', 'none'],
    sort: ['sort', 'required'], format: ['H', 'required'], 'blocking-factor': ['b', 'required'],
    'ignore-zeros': ['i', 'none'], wildcards: ['wildcards', 'none'], 'no-wildcards': ['no-wildcards', 'none'],
    'full-time': ['full-time', 'none'], 'remove-files': ['remove-files', 'none'], totals: ['totals', 'none'],
    interactive: ['w', 'none'], confirmation: ['w', 'none'],
    help: ['help', 'none'], usage: ['usage', 'none'], version: ['version', 'none'],
  },
};

const TAKES_ARG = new Set(['C', 'f', 'T', 'X', 'H', 'b']);
const COMPRESSORS: Record<string, string> = { z: 'gzip', j: 'bzip2', J: 'xz', Z: 'compress', zstd: 'zstd', lzip: 'lzip', lzma: 'lzma' };
const FORMATS: Record<string, Format> = { gnu: 'gnu', oldgnu: 'oldgnu', ustar: 'ustar', posix: 'posix', pax: 'posix', v7: 'v7' };

/** `tar cvf a.tar d` → `-c -v -f a.tar d`: letters take their arguments from the words after the cluster. */
function expandOldStyle(args: string[]): string[] {
  if (args.length === 0 || args[0].startsWith('-')) return args;
  const rest = args.slice(1);
  const out: string[] = [];
  let k = 0;
  for (const ch of args[0]) {
    out.push(`-${ch}`);
    if (TAKES_ARG.has(ch) && k < rest.length) out.push(rest[k++]);
  }
  return [...out, ...rest.slice(k)];
}

export function parseOptions(argv: string[], env: Record<string, string>): TarOptions | Info {
  const o: TarOptions = {
    mode: null, archive: env.TAPE || '-', compress: null, autoCompress: false, verbose: 0,
    samePermissions: null, sameOwner: null, numericOwner: false, owner: null, group: null, old: 'overwrite',
    toStdout: false, excludes: [], strip: 0, nullNames: false, dereference: false,
    absoluteNames: false, touch: false, sort: 'none', format: 'gnu', blocking: 20, ignoreZeros: false,
    wildcards: null, fullTime: false, removeFiles: false, totals: false, args: [],
  };
  let parsed;
  try {
    parsed = parseArgs(expandOldStyle(argv), SPEC, 'POSIXLY_CORRECT' in env);
  } catch (e) {
    if (e instanceof UsageError) throw new TarUsage(e.message);
    throw e;
  }
  for (const [k, v] of parsed.list) {
    if (k === 'help' || k === 'usage' || k === 'version') return k;
    if (k === '') {
      o.args.push({ name: v! });
      continue;
    }
    if (MODES.includes(k) && k.length === 1 || k === 'delete') {
      if (o.mode !== null && o.mode !== k) {
        throw new TarUsage("You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option", 2);
      }
      if (!'ctxru'.includes(k)) throw new TarUsage(`${k.length === 1 ? `-${k}` : `--${k}`}: this operation is not supported by agentOS tar`, 2);
      o.mode = k as Mode;
      continue;
    }
    if (k in COMPRESSORS) {
      const c = COMPRESSORS[k];
      if (o.compress && o.compress !== c) throw new TarUsage('Conflicting compression options', 2);
      o.compress = c;
      continue;
    }
    switch (k) {
      case 'C': o.args.push({ dir: v! }); break;
      case 'f': o.archive = v!; break;
      case 'a': o.autoCompress = true; break;
      case 'v': o.verbose++; break;
      case 'p': o.samePermissions = true; break;
      case 'no-same-permissions': o.samePermissions = false; break;
      case 'same-owner': o.sameOwner = true; break;
      case 'no-same-owner': o.sameOwner = false; break;
      case 'numeric-owner': o.numericOwner = true; break;
      case 'owner': o.owner = v!; break;
      case 'group': o.group = v!; break;
      case 'k': o.old = 'keep'; break;
      case 'skip-old-files': o.old = 'skip'; break;
      case 'overwrite': o.old = 'overwrite'; break;
      case 'O': o.toStdout = true; break;
      case 'exclude': o.args.push({ exclude: v! }); break;
      case 'X': o.args.push({ excludeFrom: v! }); break;
      case 'strip-components': {
        if (!/^\d+$/.test(v!)) throw new TarUsage(`${v}: Invalid number of elements`, 2);
        o.strip = Number(v);
        break;
      }
      case 'T': o.args.push({ list: v! }); break;
      case 'null': o.nullNames = true; break;
      case 'no-null': o.nullNames = false; break;
      case 'h': o.dereference = true; break;
      case 'P': o.absoluteNames = true; break;
      case 'm': o.touch = true; break;
      case 'sort': {
        if (v !== 'none' && v !== 'name' && v !== 'inode') {
          const valid = ['none', 'name', 'inode'].map((a) => `\n  - ${quoteArg(a)}`).join('');
          throw new TarUsage(`invalid argument ${quoteArg(v!)} for ${quoteArg('--sort')}\nValid arguments are:${valid}`, 2, false);
        }
        // agentOS has no disk layout to follow: inode order is directory order.
        o.sort = v === 'name' ? 'name' : 'none';
        break;
      }
      case 'H': {
        const f = FORMATS[v!];
        if (!f) throw new TarUsage(`${v}: Invalid archive format`, 2);
        o.format = f;
        break;
      }
      case 'b': {
        const n = Number(v);
        if (!/^\d+$/.test(v!) || n < 1) throw new TarUsage(`${v}: Invalid blocking factor`, 2);
        o.blocking = n;
        break;
      }
      case 'i': o.ignoreZeros = true; break;
      case 'wildcards': o.wildcards = true; break;
      case 'no-wildcards': o.wildcards = false; break;
      case 'full-time': o.fullTime = true; break;
      case 'remove-files': o.removeFiles = true; break;
      case 'totals': o.totals = true; break;
      case 'w': throw new TarUsage('--interactive is not supported by agentOS tar', 2);
    }
  }
  if (o.mode === null) throw new TarUsage("You must specify one of the '-Acdtrux', '--delete' or '--test-label' options", 2);
  return o;
}

