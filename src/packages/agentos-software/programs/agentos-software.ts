// agentos-software: link, list, unlink, install and upgrade packages.
// It holds no privilege: every change is a request to the kernel's software broker.

import { strerror, SysError } from '../../../abi/errno.js';
import { DT_DIR } from '../../../abi/stat.js';
import type { SoftwareLinks } from '../../../abi/syscall-types.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import type { RepoEntry } from '../../../runtimes/js/repository.js';
import { gunzip, untar } from '../../../libc/tar.js';

const USAGE = `Usage: agentos-software COMMAND [ARG]...

  link PATH              link the commands of a package directory or node module
                         directory (its package.json "bin" map) into /opt/agentos/bin
  unlink NAME            remove the links of package NAME, or the command link NAME
  list                   show every command link in /opt/agentos/bin and its target
  install SOURCE [--upgrade]
                         install a package (a name from the repository, a .tgz
                         file or a directory) into /opt/agentos/<name>/<version>
                         and link it; --upgrade also makes it the current version
  search [WORD]          list the repository's packages (whose name or
                         description holds WORD)
  info NAME              show a repository package's version, size and commands
  upgrade NAME VERSION   make an installed VERSION of NAME current (one atomic rename)
  help                   show this help
`;

const O_WRONLY = 0o1, O_CREAT = 0o100, O_EXCL = 0o200;

export default async function main(os: AgentosApi): Promise<void> {
  const [cmd, ...args] = os.argv.slice(1);
  try {
    switch (cmd) {
      case 'link':
        need(os, args, 1, 'link PATH');
        return report(os, os.sys.software('link', args[0]));
      case 'unlink':
        need(os, args, 1, 'unlink NAME');
        for (const c of os.sys.software('unlink', args[0])) os.print(`unlinked ${c}\n`);
        return;
      case 'list':
        for (const l of os.sys.software('list')) {
          os.print(`${l.command} -> ${l.target}\n`);
        }
        return;
      case 'install': {
        need(os, args, 1, 'install SOURCE [--upgrade]');
        const upgrade = args.includes('--upgrade');
        const source = args.find((a) => a !== '--upgrade')!;
        const fromRepo = isRepoName(os, source);
        const staging = fromRepo ? await download(os, await entry(os, source)) : await stage(os, source);
        try {
          const r = os.sys.software('install', staging, upgrade ? 1 : 0);
          os.print(`installed ${r.name} ${r.version}\n`);
          return report(os, r);
        } finally {
          if (fromRepo) removeTree(os, staging);
        }
      }
      case 'search': {
        const word = (args[0] ?? '').toLowerCase();
        const hits = (await os.repository.index()).filter((e) => `${e.name} ${e.description}`.toLowerCase().includes(word));
        for (const e of hits) os.print(`${e.name} ${e.version} (${mb(e.bytes)})\n  ${e.description}\n`);
        if (!hits.length) os.exit(1);
        return;
      }
      case 'info': {
        need(os, args, 1, 'info NAME');
        const e = await entry(os, args[0]);
        os.print(`Name: ${e.name}\nVersion: ${e.version}\nSize: ${mb(e.bytes)} in ${e.files} files\n`);
        os.print(`Commands: ${e.commands.join(' ')}\nDescription: ${e.description}\n`);
        return;
      }
      case 'upgrade':
        need(os, args, 2, 'upgrade NAME VERSION');
        report(os, os.sys.software('upgrade', args[0], args[1]));
        os.print(`${args[0]} is now at ${args[1]}\n`);
        return;
      case undefined:
      case 'help':
      case '--help':
        os.print(USAGE);
        return os.exit(cmd ? 0 : 2);
      default:
        os.eprint(`agentos-software: unknown command '${cmd}'\n${USAGE}`);
        return os.exit(2);
    }
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    const detail = /\((.*)\)$/.exec(e.message)?.[1];
    os.eprint(`agentos-software: ${cmd}: ${detail && detail !== 'software' ? detail : strerror(e.errno)}\n`);
    os.exit(1);
  }
}

function need(os: AgentosApi, args: string[], n: number, usage: string): void {
  if (args.length < n) {
    os.eprint(`agentos-software: usage: agentos-software ${usage}\n`);
    os.exit(2);
  }
}

function report(os: AgentosApi, r: SoftwareLinks): void {
  for (const w of r.warnings) os.eprint(`agentos-software: warning: ${w}\n`);
  if (r.linked.length) os.print(`linked ${r.linked.join(' ')}\n`);
}

function isDir(os: AgentosApi, path: string): boolean {
  try {
    return (os.sys.stat(path).mode & 0o170000) === 0o040000;
  } catch {
    return false;
  }
}

/** A directory is used as is; a .tgz is unpacked under /tmp; anything else would need the registry. */
async function stage(os: AgentosApi, source: string): Promise<string> {
  if (isDir(os, source)) return source;
  let bytes: Uint8Array;
  try {
    bytes = os.sys.readFile(source);
  } catch (e) {
    throw new SysError((e as SysError).errno, `${source}: ${strerror((e as SysError).errno)}`);
  }
  const tar = bytes[0] === 0x1f && bytes[1] === 0x8b ? await gunzip(bytes) : bytes;
  const entries = untar(tar);
  if (!entries.length) throw new SysError(22, `${source}: not a tar archive`);
  const root = `/tmp/agentos-software.${os.pid}.${Date.now().toString(36)}`;
  os.sys.mkdir(root, 0o700);
  for (const e of entries) {
    const rel = e.path.replace(/^\.?\//, '').replace(/\/$/, '');
    if (!rel || rel.split('/').some((p) => p === '..')) throw new SysError(22, `${source}: unsafe path ${e.path}`);
    if (e.type === 'other') throw new SysError(1, `${source}: ${e.path}: packages may hold only files and directories`);
    mkdirs(os, root, rel.split('/').slice(0, e.type === 'dir' ? undefined : -1));
    if (e.type === 'file') {
      const fd = os.sys.open(`${root}/${rel}`, O_WRONLY | O_CREAT | O_EXCL, (e.mode & 0o777) | 0o600);
      os.sys.writeAll(fd, e.data);
      os.sys.close(fd);
    }
  }
  // npm tarballs hold one top directory (usually package/).
  const tops = [...new Set(entries.map((e) => e.path.replace(/^\.?\//, '').split('/')[0]))];
  return tops.length === 1 && isDir(os, `${root}/${tops[0]}`) ? `${root}/${tops[0]}` : root;
}

const mb = (n: number): string => `${(n / 1e6).toFixed(1)} MB`;

/** A bare name that is not a file here: a package of the repository. */
function isRepoName(os: AgentosApi, source: string): boolean {
  if (source.includes('/') || /\.t(ar\.)?gz$/.test(source)) return false;
  try {
    os.sys.lstat(source);
    return false;
  } catch {
    return true;
  }
}

async function entry(os: AgentosApi, name: string): Promise<RepoEntry> {
  const e = (await os.repository.index()).find((x) => x.name === name);
  if (!e) throw new SysError(2, `no package '${name}' in the repository ('agentos-software search' lists them)`);
  return e;
}

/** Copy a repository package into a staging directory under /tmp, drawing a progress bar on stderr. */
async function download(os: AgentosApi, e: RepoEntry): Promise<string> {
  const files = await os.repository.files(e.name);
  const root = `/tmp/agentos-software.${os.pid}.${Date.now().toString(36)}`;
  os.sys.mkdir(root, 0o700);
  const label = `${e.name} ${e.version}`;
  let done = 0;
  let shown = -1;
  const bar = (bytes: number) => {
    const pct = e.bytes ? Math.min(100, Math.floor((100 * bytes) / e.bytes)) : 100;
    if (pct === shown) return;
    shown = pct;
    const width = 30;
    const full = Math.round((pct * width) / 100);
    os.eprint(`\rfetching ${label} [${'#'.repeat(full)}${' '.repeat(width - full)}] ${String(pct).padStart(3)}% ${mb(bytes)}/${mb(e.bytes)}`);
  };
  try {
    bar(0);
    for (const [path, mode] of files) {
      if (path.split('/').some((p) => p === '..' || p === '')) throw new SysError(22, `${e.name}: unsafe path ${path}`);
      mkdirs(os, root, path.split('/').slice(0, -1));
      const data = await os.repository.read(e.name, path, (n) => bar(done + n));
      const fd = os.sys.open(`${root}/${path}`, O_WRONLY | O_CREAT | O_EXCL, (mode & 0o777) | 0o600);
      os.sys.writeAll(fd, data);
      os.sys.close(fd);
      done += data.length;
      bar(done);
    }
    os.eprint('\n');
  } catch (err) {
    os.eprint('\n');
    removeTree(os, root);
    if (err instanceof SysError) throw err;
    throw new SysError(5, `fetching ${label} from the repository failed: ${(err as Error).message}`);
  }
  return root;
}

function removeTree(os: AgentosApi, path: string): void {
  for (const d of os.sys.readdir(path)) {
    if (d.name === '.' || d.name === '..') continue;
    const p = `${path}/${d.name}`;
    if (d.type === DT_DIR) removeTree(os, p);
    else os.sys.unlink(p);
  }
  os.sys.rmdir(path);
}

function mkdirs(os: AgentosApi, root: string, parts: string[]): void {
  let cur = root;
  for (const p of parts) {
    cur += `/${p}`;
    if (!isDir(os, cur)) os.sys.mkdir(cur, 0o755);
  }
}
