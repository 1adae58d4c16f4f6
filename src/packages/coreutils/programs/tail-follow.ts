// tail -f / -F / --follow[=name|descriptor] [--retry] [--pid=PID] [-s SECONDS]:
// after the usual output, keep printing what is appended. Files are polled
// (their size and identity checked, then a sleep), like GNU tail without
// inotify; it ends on a signal, or after --pid's process has died.

import { S_IFMT, S_IFREG, type Stat } from '../../../abi/stat.js';
import { openInput, quote, quoteaf, quotef, type Cmd } from '../../../userland/lib/index.js';
import { header, type Extra } from './count.js';

const POLLIN = 1;
const SEEK_SET = 0;
const SEEK_CUR = 1;

interface Followed {
  name: string;
  fd: number;
  /** Bytes of a regular file already printed. */
  pos: number;
  ino: number;
  regular: boolean;
  /** No longer watched (unopenable without --retry, or stdin as a pipe). */
  ignore: boolean;
  /** Missing or inaccessible for now (name mode retries it). */
  gone: boolean;
}

interface Plan {
  byName: boolean;
  retry: boolean;
  pid: number;
  sleepMs: number;
  headers: boolean;
}

export const follow: Extra = {
  short: 'fFs:',
  long: {
    follow: ['f', 'optional'], retry: ['R', 'none'], pid: ['p', 'required'], 'sleep-interval': ['s', 'required'],
    'max-unchanged-stats': ['m', 'required'], '-disable-inotify': ['i', 'none'],
  },
  loop(c, files, print, headers) {
    const plan = options(c, headers);
    if (!plan) return false;
    const list = files.map((name) => start(c, plan, name, print));
    // Standard input as a pipe was read to its end: alone, it leaves nothing to follow.
    if (list.every((f) => f.name === '-' && f.fd === 0 && f.ignore)) return true;
    run(c, plan, list, list.length - 1);
    return true;
  },
};

function options(c: Cmd, headers: boolean): Plan | null {
  let mode: 'name' | 'descriptor' | null = null;
  let retry = false;
  for (const [k, v] of c.all) {
    if (k === 'f') {
      if (v === undefined || v === 'descriptor' || v === 'name') mode = v === 'name' ? 'name' : 'descriptor';
      else {
        c.warn(`invalid argument ${quote(v)} for ${quote('--follow')}\nValid arguments are:\n  - ${quote('descriptor')}\n  - ${quote('name')}`);
        c.tryHelp();
      }
    } else if (k === 'F') {
      mode = 'name';
      retry = true;
    } else if (k === 'R') retry = true;
  }
  const s = c.get('s');
  const seconds = s === undefined ? 1 : Number(s);
  if (s !== undefined && (!/^\s*[+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s) || !(seconds >= 0))) c.fail(`invalid number of seconds: ${quote(s)}`);
  const p = c.get('p');
  if (p !== undefined && !/^\d+$/.test(p)) c.fail(`invalid PID: ${quote(p)}`);
  const m = c.get('m');
  if (m !== undefined && !/^\d+$/.test(m)) c.fail(`invalid maximum number of unchanged stats between opens: ${quote(m)}`);
  if (!mode) {
    if (p !== undefined) c.warn('warning: PID ignored; --pid=PID is useful only when following');
    if (retry) c.warn('warning: --retry ignored; --retry is useful only when following');
    return null;
  }
  if (mode === 'descriptor' && retry) c.warn('warning: --retry only effective for the initial open');
  return { byName: mode === 'name', retry, pid: p === undefined ? 0 : Number(p), sleepMs: seconds * 1000, headers };
}

/** Open and print one file as plain tail does, keeping it open to follow. */
function start(c: Cmd, plan: Plan, name: string, print: (fd: number, name: string) => void): Followed {
  const f: Followed = { name, fd: -1, pos: 0, ino: -1, regular: false, ignore: false, gone: true };
  const fd = openInput(c, name, 'for-reading');
  if (fd === null) {
    f.ignore = !(plan.retry && plan.byName);
    return f;
  }
  try {
    print(fd, name);
  } catch (e) {
    if (!(e instanceof c.os.SysError)) throw e;
    c.sysError(quotef(name), e);
  }
  const st = c.sys.fstat(fd);
  Object.assign(f, { fd, gone: false, ino: st.ino, regular: isRegular(st) });
  if (f.regular) f.pos = c.sys.lseek(fd, 0, SEEK_CUR);
  else if (name === '-') f.ignore = true;
  return f;
}

const isRegular = (st: Stat) => (st.mode & S_IFMT) === S_IFREG;

function run(c: Cmd, plan: Plan, list: Followed[], lastPrinted: number): void {
  // What plain tail printed must be out before the waiting starts.
  c.out.flush();
  let last = lastPrinted;
  let writerDead = false;
  const emit = (i: number, data: Uint8Array) => {
    if (plan.headers && i !== last) c.out.write(header(list[i].name, false));
    last = i;
    c.out.write(data);
    c.out.flush();
  };
  for (;;) {
    let any = false;
    list.forEach((f, i) => {
      if (!f.ignore && poll(c, plan, f, (d) => emit(i, d))) any = true;
    });
    if (list.every((f) => f.ignore)) c.fail('no files remaining');
    if (any) continue;
    if (writerDead) return;
    writerDead = plan.pid !== 0 && !alive(c, plan.pid);
    // Once the writer is dead, the files are read once more before leaving.
    if (!writerDead) c.sys.sleep(plan.sleepMs);
  }
}

function alive(c: Cmd, pid: number): boolean {
  try {
    c.sys.kill(pid, 0);
    return true;
  } catch (e) {
    return e instanceof c.os.SysError && e.errno === 1; // EPERM: there, but not ours
  }
}

/** Check one file once; returns whether anything was printed. */
function poll(c: Cmd, plan: Plan, f: Followed, emit: (d: Uint8Array) => void): boolean {
  if (plan.byName && f.name !== '-' && !reopen(c, plan, f)) return false;
  if (f.fd < 0) return false;
  if (!f.regular) return drainReady(c, f, emit);
  const st = c.sys.fstat(f.fd);
  if (st.size < f.pos) {
    c.warn(`${quotef(f.name)}: file truncated`);
    f.pos = c.sys.lseek(f.fd, 0, SEEK_SET);
  }
  if (st.size === f.pos) return false;
  let any = false;
  for (let b = c.sys.read(f.fd); b.byteLength; b = c.sys.read(f.fd)) {
    f.pos += b.byteLength;
    emit(b);
    any = true;
  }
  return any;
}

/** A pipe or FIFO: read only what is there now. */
function drainReady(c: Cmd, f: Followed, emit: (d: Uint8Array) => void): boolean {
  let any = false;
  while (c.sys.poll([[f.fd, POLLIN]], 0).some(([, ev]) => ev & POLLIN)) {
    const b = c.sys.read(f.fd);
    if (b.byteLength === 0) break;
    emit(b);
    any = true;
  }
  return any;
}

/** Following by name: notice a file that went away, came back or was replaced. False: nothing to read now. */
function reopen(c: Cmd, plan: Plan, f: Followed): boolean {
  let st: Stat;
  try {
    st = c.sys.stat(f.name);
  } catch (e) {
    if (!f.gone) {
      c.sysError(`${quoteaf(f.name)} has become inaccessible`, e);
      close(c, f);
      f.gone = true;
      if (!plan.retry) f.ignore = true;
    }
    return false;
  }
  if (!f.gone && st.ino === f.ino) return true;
  const replaced = !f.gone;
  let fd: number;
  try {
    fd = c.sys.open(f.name);
  } catch {
    return false;
  }
  close(c, f);
  c.warn(`${quoteaf(f.name)} has ${replaced ? 'been replaced' : 'appeared'};  following new file`);
  Object.assign(f, { fd, pos: 0, ino: st.ino, gone: false, regular: isRegular(st) });
  return true;
}

function close(c: Cmd, f: Followed): void {
  if (f.fd > 0) c.sys.close(f.fd);
  f.fd = -1;
}
