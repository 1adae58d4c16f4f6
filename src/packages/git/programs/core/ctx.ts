// The state of one git invocation: the process's streams and environment,
// the repository it found, the layered configuration, and isomorphic-git's
// `fs` and cache.

import { SysError } from '../../../../abi/errno.js';
import { isDir, isReg } from '../../../../abi/stat.js';
import type { AgentosApi } from '../../../../runtimes/js/api.js';
import type { Sys } from '../../../../libc/sys.js';
import { Writer } from '../../../../userland/lib/writer.js';
import { concatBytes } from '../../../../abi/bytes.js';
import { encodeBytes } from '../../../../abi/bytestr.js';
import { ConfigError, ConfigFile, normKey, parseBool, type Entry } from './config.js';
import { Fatal } from './errors.js';
import { makeFs, type PromiseFs } from './fs.js';
import { emptyIndex, parseIndex, serializeIndex, type GitIndex } from './index-file.js';
import { normalize, relative, resolve } from './path.js';

export interface Repo {
  /** The work tree's top, absolute; null for a bare repository. */
  dir: string | null;
  /** This work tree's git directory: HEAD, the index, per-worktree refs and state files. */
  gitdir: string;
  /** Where objects, refs, config and reflogs of shared refs live: `gitdir` itself, or the main repository's for a linked work tree (`commondir`). */
  commondir: string;
  /** The current directory relative to the top ('' at the top, else 'sub/dir/'). */
  prefix: string;
}

export type Scope = 'system' | 'global' | 'local' | 'command';

interface Layer {
  scope: Scope;
  path: string | null;
  file: ConfigFile;
}

/** The arguments every isomorphic-git call takes. */
export interface IsoArgs {
  fs: { promises: PromiseFs };
  dir: string;
  gitdir: string;
  cache: object;
}

const dec = new TextDecoder();

export class Ctx {
  readonly sys: Sys;
  readonly env: Record<string, string>;
  out: Writer;
  /** stdout is a terminal (log decorates then). */
  readonly tty: boolean;
  cwd: string;
  readonly fs: { promises: PromiseFs };
  /** isomorphic-git's object/pack/index cache, shared by its calls (renewed when we write the index ourselves). */
  cache: object = {};
  /** `-c key=value` pairs, in order. */
  readonly cmdConfig: [string, string][] = [];
  private repoFound: Repo | null | undefined;
  private layersCache: Layer[] | null = null;

  constructor(readonly os: AgentosApi) {
    this.sys = os.sys;
    this.env = os.env;
    let tty = false;
    try {
      tty = this.sys.isatty(1);
    } catch {
      // stdout closed: the first write says so
    }
    this.tty = tty;
    this.out = new Writer(this.sys, 1, tty);
    this.cwd = this.sys.getcwd();
    this.fs = makeFs(this.sys);
  }

  print(text: string): void {
    this.out.write(text);
  }

  /** What `fn` writes to stdout, as bytes, instead of writing it (log --graph puts its rows before each line). */
  async capture(fn: () => Promise<unknown>): Promise<Uint8Array> {
    const out = this.out;
    const held = new HeldOutput();
    this.out = held;
    try {
      await fn();
    } finally {
      this.out = out;
    }
    return concatBytes(held.parts);
  }

  /** Write to stderr after what stdout holds, so the two stay in order. */
  err(text: string): void {
    this.out.flush();
    this.sys.writeAll(2, text);
  }

  error(msg: string): void {
    this.err(`error: ${msg}\n`);
  }

  warning(msg: string): void {
    this.err(`warning: ${msg}\n`);
  }

  hint(lines: string[]): void {
    if (!this.configBool('advice.hints', true)) return;
    this.err(lines.map((l) => `hint: ${l}\n`).join(''));
  }

  fatal(msg: string, status = 128): never {
    throw new Fatal(msg, status);
  }

  abs(p: string): string {
    return resolve(this.cwd, p);
  }

  // ---- files -------------------------------------------------------------------

  readText(path: string): string | null {
    try {
      return dec.decode(this.sys.readFile(path));
    } catch (e) {
      if (e instanceof SysError) return null;
      throw e;
    }
  }

  exists(path: string): boolean {
    try {
      this.sys.lstat(path);
      return true;
    } catch (e) {
      if (e instanceof SysError) return false;
      throw e;
    }
  }

  /** Write a file through a .lock beside it, as git does, so readers never see half of it. */
  writeAtomic(path: string, data: string | Uint8Array, mode = 0o666): void {
    const lock = `${path}.lock`;
    this.sys.writeFile(lock, data, mode);
    this.sys.rename(lock, path);
  }

  // ---- the repository ----------------------------------------------------------

  /** The repository around the current directory, or null. */
  findRepo(): Repo | null {
    if (this.repoFound !== undefined) return this.repoFound;
    this.repoFound = this.discover();
    return this.repoFound;
  }

  repo(): Repo {
    const r = this.findRepo();
    if (!r) this.fatal('not a git repository (or any of the parent directories): .git');
    return r;
  }

  /** The repository, which must have a work tree. */
  worktree(): Repo & { dir: string } {
    const r = this.repo();
    if (r.dir === null) this.fatal('this operation must be run in a work tree');
    return r as Repo & { dir: string };
  }

  /** Forget the cached discovery (after init/clone create a repository). */
  resetRepo(): void {
    this.repoFound = undefined;
    this.layersCache = null;
  }

  iso(): IsoArgs {
    const r = this.repo();
    // isomorphic-git sees the common directory: objects and shared refs (per-worktree refs go through refs.ts)
    return { fs: this.fs, dir: r.dir ?? r.gitdir, gitdir: r.commondir, cache: this.cache };
  }

  /** The common directory of a git directory: itself, or where its `commondir` file points (a linked work tree's). */
  commonDirOf(gitdir: string): string {
    const text = this.readText(`${gitdir}/commondir`);
    return text === null ? gitdir : resolve(gitdir, text.trim());
  }

  private isGitDir(p: string): boolean {
    try {
      const common = this.commonDirOf(p);
      return isReg(this.sys.stat(`${p}/HEAD`).mode) && isDir(this.sys.stat(`${common}/objects`).mode) && isDir(this.sys.stat(`${common}/refs`).mode);
    } catch (e) {
      if (e instanceof SysError) return false;
      throw e;
    }
  }

  private discover(): Repo | null {
    const envDir = this.env.GIT_DIR;
    if (envDir) {
      const gitdir = this.abs(envDir);
      if (!this.isGitDir(gitdir)) this.fatal(`not a git repository: '${envDir}'`);
      const wt = this.env.GIT_WORK_TREE ? this.abs(this.env.GIT_WORK_TREE) : this.cwd;
      return this.withPrefix(wt, gitdir);
    }
    for (let d = this.cwd; ; d = normalize(`${d}/..`)) {
      const dotgit = d === '/' ? '/.git' : `${d}/.git`;
      let st = null;
      try {
        st = this.sys.stat(dotgit);
      } catch (e) {
        if (!(e instanceof SysError)) throw e;
      }
      if (st && isDir(st.mode) && this.isGitDir(dotgit)) return this.withPrefix(d, dotgit);
      if (st && isReg(st.mode)) {
        const m = /^gitdir: (.*)$/m.exec(this.readText(dotgit) ?? '');
        if (m) return this.withPrefix(d, resolve(d, m[1].trim()));
      }
      // inside a .git directory or a bare repository: no work tree
      if (this.isGitDir(d)) return { dir: null, gitdir: d, commondir: this.commonDirOf(d), prefix: '' };
      if (d === '/') return null;
    }
  }

  private withPrefix(dir: string, gitdir: string): Repo {
    const rel = relative(dir, this.cwd);
    const prefix = rel === '.' ? '' : rel.startsWith('..') ? '' : `${rel}/`;
    return { dir, gitdir, commondir: this.commonDirOf(gitdir), prefix };
  }

  // ---- the index -----------------------------------------------------------------

  readIndex(): GitIndex {
    let buf: Uint8Array;
    try {
      buf = this.sys.readFile(`${this.repo().gitdir}/index`);
    } catch (e) {
      if (e instanceof SysError) return emptyIndex();
      throw e;
    }
    try {
      return parseIndex(buf);
    } catch (e) {
      this.fatal(`${(e as Error).message}`);
    }
  }

  async writeIndex(idx: GitIndex): Promise<void> {
    this.writeAtomic(`${this.repo().gitdir}/index`, await serializeIndex(idx));
    this.cache = {};
  }

  // ---- configuration -------------------------------------------------------------

  globalConfigPath(): string | null {
    if (this.env.GIT_CONFIG_GLOBAL !== undefined) return this.env.GIT_CONFIG_GLOBAL;
    const home = this.env.HOME;
    return home ? `${home}/.gitconfig` : null;
  }

  configPath(scope: Scope): string | null {
    switch (scope) {
      case 'system':
        return this.env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig';
      case 'global':
        return this.globalConfigPath();
      case 'local':
        return `${this.repo().commondir}/config`;
      default:
        return null;
    }
  }

  private loadLayer(scope: Scope, path: string | null): Layer | null {
    if (!path) return null;
    const text = this.readText(path);
    if (text === null) return null;
    try {
      return { scope, path, file: new ConfigFile(text) };
    } catch (e) {
      if (e instanceof ConfigError) this.fatal(`${e.message} in file ${path}`);
      throw e;
    }
  }

  layers(): Layer[] {
    if (this.layersCache) return this.layersCache;
    const out: Layer[] = [];
    const push = (l: Layer | null) => l && out.push(l);
    if (!this.env.GIT_CONFIG_NOSYSTEM) push(this.loadLayer('system', this.configPath('system')));
    if (this.env.GIT_CONFIG_GLOBAL === undefined) {
      const xdg = this.env.XDG_CONFIG_HOME || (this.env.HOME ? `${this.env.HOME}/.config` : '');
      if (xdg) push(this.loadLayer('global', `${xdg}/git/config`));
    }
    push(this.loadLayer('global', this.globalConfigPath()));
    if (this.findRepo()) push(this.loadLayer('local', this.configPath('local')));
    const cmd = new ConfigFile();
    const pairs: [string, string][] = [];
    const n = Number(this.env.GIT_CONFIG_COUNT ?? 0);
    for (let i = 0; i < n; i++) pairs.push([this.env[`GIT_CONFIG_KEY_${i}`] ?? '', this.env[`GIT_CONFIG_VALUE_${i}`] ?? '']);
    pairs.push(...this.cmdConfig);
    const entries: Entry[] = [];
    for (const [k, v] of pairs) {
      const nk = normKey(k);
      if (nk) entries.push({ key: nk, value: v, first: -1, last: -1 });
    }
    cmd.entries = entries;
    out.push({ scope: 'command', path: null, file: cmd });
    this.layersCache = out;
    return out;
  }

  /** The last value of `key` (any spelling) across all layers; undefined when unset. */
  config(key: string): string | undefined {
    const nk = normKey(key);
    if (!nk) return undefined;
    let v: string | null | undefined;
    for (const l of this.layers()) {
      const x = l.file.get(nk);
      if (x !== undefined) v = x;
    }
    return v === null ? 'true' : v;
  }

  configAll(key: string): string[] {
    const nk = normKey(key);
    if (!nk) return [];
    return this.layers().flatMap((l) => l.file.getAll(nk).map((v) => v ?? 'true'));
  }

  configBool(key: string, dflt: boolean): boolean {
    const v = this.config(key);
    if (v === undefined) return dflt;
    const b = parseBool(v);
    if (b === null) this.fatal(`bad boolean config value '${v}' for '${key}'`);
    return b;
  }

  /** Edit the file of one scope and save it (created when missing). */
  editConfig(scope: Scope, edit: (f: ConfigFile) => void): void {
    const path = this.configPath(scope);
    if (!path) this.fatal('$HOME not set');
    let file: ConfigFile;
    try {
      file = new ConfigFile(this.readText(path) ?? '');
    } catch (e) {
      if (e instanceof ConfigError) this.fatal(`${e.message} in file ${path}`);
      throw e;
    }
    edit(file);
    this.writeAtomic(path, file.toString());
    this.layersCache = null;
  }
}

/** A Writer that keeps what is written (Ctx.capture). */
class HeldOutput extends Writer {
  readonly parts: Uint8Array[] = [];
  constructor() {
    super(null as never, -1);
  }
  override write(data: string | Uint8Array): void {
    this.parts.push(typeof data === 'string' ? encodeBytes(data) : data.slice());
  }
  override flush(): void {}
}
