// Guest programs that attack the syscall channel from inside a process, for
// test/security/kernel.test.ts (Node) and e2e/security-kernel.spec.ts
// (Chromium). They reach the channel through the syscall client's fields
// (`agentos.sys.raw`: header, data, bell, enc), which a JavaScript program can
// always read: the realm is not a boundary, the channel bytes are.

import { DATA_BYTES, H_SLEEPING } from '../../src/abi/channel.js';
import { Errno } from '../../src/abi/errno.js';
import { SYSNO } from '../../src/abi/syscalls.js';

/** Shared by the guest programs: send one raw message, wait for the reply, return its errno. */
const RAW = `
const SYSNO = ${JSON.stringify(SYSNO)};
const DATA = ${DATA_BYTES};
const c = agentos.sys.raw;
const h = c.header, data = c.data, bell = c.bell;
function send(sysno, bytes, len = bytes.length) {
  data.set(bytes.subarray(0, Math.min(bytes.length, DATA)));
  h[1] = sysno;
  h[2] = len;
  Atomics.store(h, 0, 1);
  Atomics.add(bell, 0, 1);
  Atomics.notify(bell, 0);
  // The kernel notifies a caller that says it sleeps (H_SLEEPING, abi/channel.ts).
  Atomics.store(h, ${H_SLEEPING}, 1);
  while (Atomics.load(h, 0) !== 2) {
    if (Atomics.wait(h, 0, 1, 10000) === 'timed-out') throw new Error('no reply in 10 s to syscall ' + sysno);
  }
  Atomics.store(h, ${H_SLEEPING}, 0);
  const errno = h[3];
  Atomics.store(h, 0, 0);
  return errno;
}
/** Encode values the way the syscall client does. */
function enc(...values) {
  c.enc.reset();
  for (const v of values) c.enc.value(v);
  return data.slice(0, c.enc.pos);
}
const u32 = (n) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];
`;

/** A JavaScript program (`#!/usr/libexec/agentos/js`) with the raw channel helpers above. */
export const guest = (body: string): string => `#!/usr/libexec/agentos/js\n${RAW}\n${body}\n`;

/** Sends each malformed message once and prints {case: errno} as JSON. */
export const MALFORMED = `
const B = (a) => Uint8Array.from(a);
const deep = [];
for (let i = 0; i < 10000; i++) deep.push(7, ...u32(1));
deep.push(0);
const cases = {
  'bad tag': [SYSNO.getpid, B([200])],
  'bad tag after a good value': [SYSNO.stat, B([0, 99])],
  'request length -1': [SYSNO.getpid, B([]), -1],
  'request length -2^31': [SYSNO.getpid, B([]), -(2 ** 31)],
  'request length past the data area': [SYSNO.getpid, B([]), DATA + 1],
  'request length 2^31-1': [SYSNO.getpid, B([]), 2 ** 31 - 1],
  'syscall number -1': [-1, B([])],
  'syscall number 2^31-1': [2 ** 31 - 1, B([])],
  'truncated int': [SYSNO.close, B([3, 1, 2])],
  'truncated double': [SYSNO.close, B([4, 1, 2, 3])],
  'string length past the end': [SYSNO.stat, B([5, ...u32(0x7fffffff), 47])],
  'bytes length past the end': [SYSNO.write, B([3, ...u32(1), 6, ...u32(0xffffffff)])],
  'array of 2^32-1 items': [SYSNO.poll, B([7, ...u32(0xffffffff)])],
  'object of 2^32-1 keys': [SYSNO.spawn, B([8, ...u32(0xffffffff)])],
  'arrays nested 10,000 deep': [SYSNO.poll, B(deep)],
  'a __proto__ key stays data': [SYSNO.spawn, enc(JSON.parse('{"__proto__": {"path": "/bin/true", "argv": ["true"]}}'))],
  'read(string, string)': [SYSNO.read, enc('x', 'y')],
  'read(NaN, 10)': [SYSNO.read, enc(NaN, 10)],
  'open(number)': [SYSNO.open, enc(42, 0)],
  'write(1, string)': [SYSNO.write, enc(1, 'not bytes')],
  'spawn with string fds': [SYSNO.spawn, enc({ path: '/bin/true', argv: ['true'], fds: [['a', 'b']] })],
  'spawn with fds out of range': [SYSNO.spawn, enc({ path: '/bin/true', argv: ['true'], fds: [[0, 0], [-1, 1]] })],
  'spawn with pgid NaN': [SYSNO.spawn, enc({ path: '/bin/true', argv: ['true'], pgid: NaN })],
  'poll([5])': [SYSNO.poll, enc([5], 0)],
  'poll([[0, "x"]])': [SYSNO.poll, enc([[0, 'x']], 0)],
  'ioctl(0, string, object)': [SYSNO.ioctl, enc(0, 'TCGETS', { a: [1] })],
};
const out = {};
for (const [name, [sysno, bytes, len]] of Object.entries(cases)) out[name] = send(sysno, bytes, len);
// A spawn refused for a child fd past the fd limit (maxOpenFiles 256) keeps no reference
// to the fds it had already mapped: with the write end closed, the pipe reads EOF.
const [r, w] = agentos.sys.pipe();
out['spawn with a child fd past the limit'] = send(SYSNO.spawn, enc({ path: '/opt/agentos/bin/true', argv: ['true'], fds: [[0, w], [600, 1]] }));
agentos.sys.close(w);
out['no writer left behind'] = agentos.sys.poll([[r, 1]], 2000).length === 1 ? 0 : -1;
// The channel still works: an ordinary call through the client.
out['getpid after'] = agentos.sys.getpid() === agentos.pid ? 0 : -1;
agentos.print(JSON.stringify(out));
`;

/** What MALFORMED must print: every message answered, none fatal. */
export const MALFORMED_ERRNOS: Record<string, number> = {
  'bad tag': Errno.EINVAL,
  'bad tag after a good value': Errno.EINVAL,
  'request length -1': Errno.EINVAL,
  'request length -2^31': Errno.EINVAL,
  'request length past the data area': Errno.EINVAL,
  'request length 2^31-1': Errno.EINVAL,
  'syscall number -1': Errno.ENOSYS,
  'syscall number 2^31-1': Errno.ENOSYS,
  'truncated int': Errno.EINVAL,
  'truncated double': Errno.EINVAL,
  'string length past the end': Errno.EINVAL,
  'bytes length past the end': Errno.EINVAL,
  'array of 2^32-1 items': Errno.EINVAL,
  'object of 2^32-1 keys': Errno.EINVAL,
  'arrays nested 10,000 deep': Errno.EINVAL,
  'a __proto__ key stays data': Errno.EFAULT,
  'read(string, string)': Errno.EINVAL,
  'read(NaN, 10)': Errno.EINVAL,
  'open(number)': Errno.EFAULT,
  'write(1, string)': Errno.EFAULT,
  'spawn with string fds': Errno.EINVAL,
  'spawn with fds out of range': Errno.EINVAL,
  'spawn with pgid NaN': Errno.EINVAL,
  'poll([5])': Errno.EFAULT,
  'poll([[0, "x"]])': Errno.EFAULT,
  'ioctl(0, string, object)': Errno.ENOTTY,
  'spawn with a child fd past the limit': Errno.EBADF,
  'no writer left behind': 0,
  'getpid after': 0,
};

/**
 * The fuzzer: records real syscalls (made through the client, so their bytes are
 * exactly what the runtime sends), then sends `count` messages: mutations of the
 * recorded ones to syscalls that cannot end, block or signal the fuzzer (the
 * recorded set), messages that cannot decode to any syscall number at all (exit,
 * kill and execve included: they must never reach a handler), header lies, and
 * unmutated replays. Seeded: a failure reproduces with the same seed.
 */
export const FUZZER = `
const [seedArg, countArg, outPath] = agentos.argv.slice(1);
let seed = Number(seedArg) >>> 0;
const rnd = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const ri = (n) => Math.floor(rnd() * n);
const pick = (a) => a[ri(a.length)];
const s = agentos.sys;
// A file-size limit answers EFBIG without killing the fuzzer.
agentos.signal(25, 1);
agentos.signal(13, 1);

const D = '/tmp/fz';
const recorded = [];
const realCall = c.call;
c.call = function (name, ...args) {
  const bytes = enc(...args);
  try {
    return realCall.call(c, name, ...args);
  } finally {
    recorded.push([SYSNO[name], bytes]);
  }
};
const ops = [
  () => s.mkdir(D), () => s.mkdir(D + '/sub'),
  () => {
    const fd = s.open(D + '/a', 0o102, 0o644);
    s.write(fd, 'hello'); s.pwrite(fd, 'xy', 3); s.pread(fd, 4, 0); s.lseek(fd, 0, 0); s.read(fd, 3);
    s.fstat(fd); s.ftruncate(fd, 2); s.fcntl(fd, 1); s.fsync(fd);
    c.call('fchmod', fd, 0o644); c.call('fchown', fd, 1000, 1000); c.call('futimes', fd, 1000, 2000); c.call('fdatasync', fd);
    const d = s.dup(fd); s.dup2(fd, 9); s.close(d); s.close(9); s.close(fd);
  },
  () => s.stat(D + '/a'), () => s.lstat(D), () => s.readdir(D), () => s.symlink('a', D + '/l'), () => s.readlink(D + '/l'),
  () => s.link(D + '/a', D + '/b'), () => s.rename(D + '/b', D + '/c'), () => s.unlink(D + '/c'), () => s.chmod(D + '/a', 0o600),
  () => s.chown(D + '/a', 1000, 1000), () => s.lchown(D + '/l', 1000, 1000),
  () => s.utimes(D + '/a', 1000, 2000), () => s.truncate(D + '/a', 1), () => s.access(D + '/a', 4), () => s.getcwd(),
  () => s.realpath(D + '/l'), () => s.statfs('/tmp'), () => s.umask(0o22), () => s.isatty(0), () => s.ioctl(0, 0x5401),
  () => s.open('/dev/null', 1), () => s.open(D + '/sub', 0o200000),
  () => s.getpid(), () => s.getppid(), () => s.getpgid(0), () => s.getsid(0), () => s.getuid(), () => s.getgid(),
  () => c.call('geteuid'), () => c.call('getegid'), () => s.setuid(1000), () => s.setgid(1000), () => s.setpgid(0, 0),
  () => s.waitpid(-1, 1), () => s.sigprocmask(0, 0), () => c.call('sigtake'), () => s.uname(), () => s.sync(),
  () => s.rmdir(D + '/sub'), () => s.http({ method: 'GET', url: 'http://127.0.0.1:9/' }),
];
for (const op of ops) {
  try { op(); } catch (e) { if (!(e instanceof agentos.SysError)) throw e; }
}
delete c.call;
const safe = [...new Set(recorded.map(([n]) => n))];
const NSYS = Object.keys(SYSNO).length;

const I8 = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0x7f, 0x80, 0xfe, 0xff];
const I32 = [0, 1, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, DATA - 1, DATA, DATA + 1, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];
const tail = (max = 16) => { const t = []; for (let j = ri(max); j > 0; j--) t.push(ri(256)); return t; };
function mutate(src) {
  const b = Array.from(src);
  for (let k = 1 + ri(4); k > 0; k--) {
    const at = ri(b.length + 1);
    switch (ri(7)) {
      case 0: if (b.length) b[at % b.length] ^= 1 << ri(8); break;
      case 1: if (b.length) b[at % b.length] = pick(I8); break;
      case 2: if (b.length) b[at % b.length] = ri(256); break;
      case 3: b.splice(Math.min(at, Math.max(0, b.length - 4)), 4, ...u32(pick(I32))); break;
      case 4: b.length = ri(b.length + 1); break;
      case 5: b.splice(at, 0, ...tail(9)); break;
      case 6: { const j = ri(b.length + 1); b.splice(Math.min(at, j), Math.abs(at - j)); break; }
    }
  }
  return Uint8Array.from(b);
}
/** Bytes that can never decode: each kind fails before any handler could run. */
function malformed() {
  switch (ri(7)) {
    case 0: return [10 + ri(246), ...tail()];
    case 1: return [5, ...u32(0x10000000 + ri(0x70000000)), ...tail()];
    case 2: return [6, ...u32(0x10000000 + ri(0x70000000)), ...tail()];
    case 3: return [7, ...u32(0x10000000 + ri(0xe0000000)), ...tail()];
    case 4: return [8, ...u32(0x10000000 + ri(0xe0000000)), ...tail()];
    case 5: { const d = []; for (let j = 40 + ri(2000); j > 0; j--) d.push(7, 1, 0, 0, 0); d.push(0); return d; }
    default: return [0, 2, 1, pick([3, 4]), ...tail(4).slice(0, 3)];
  }
}

const count = Number(countArg);
const errnos = {};
const kinds = { mutated: 0, malformed: 0, header: 0, replay: 0 };
let slowest = 0;
const t0 = Date.now();
for (let i = 0; i < count; i++) {
  let sysno, bytes, len;
  const r = ri(100);
  if (r < 60) {
    const [no, src] = pick(recorded);
    bytes = mutate(src);
    sysno = ri(10) ? no : pick(safe);
    len = ri(10) ? bytes.length : Math.max(0, bytes.length + ri(17) - 8);
    kinds.mutated++;
  } else if (r < 85) {
    sysno = ri(NSYS + 8) - 4;
    bytes = Uint8Array.from(malformed());
    len = bytes.length;
    kinds.malformed++;
  } else if (r < 90) {
    sysno = ri(NSYS + 8) - 4;
    bytes = Uint8Array.from(tail());
    len = pick([-1, -(2 ** 31), DATA + 1 + ri(1000), 2 ** 31 - 1]);
    kinds.header++;
  } else {
    [sysno, bytes] = pick(recorded);
    len = bytes.length;
    kinds.replay++;
  }
  const t = Date.now();
  const e = send(sysno, bytes, len);
  slowest = Math.max(slowest, Date.now() - t);
  errnos[e] = (errnos[e] ?? 0) + 1;
  // The channel stays usable between bad messages: an ordinary call through the client.
  if (i % 5000 === 4999 && (s.getpid() !== agentos.pid || s.stat('/').mode === undefined)) throw new Error('channel broken at ' + i);
}
s.umask(0o22);
s.writeFile(outPath, JSON.stringify({ sent: count, ms: Date.now() - t0, slowest, recorded: recorded.length, kinds, errnos }));
`;

/** Runs beside the fuzzer until it is done: its own syscalls must keep giving the right answers. */
export const SIBLING = `
const s = agentos.sys;
let n = 0;
for (;;) {
  if (s.getpid() !== agentos.pid) throw new Error('getpid answered wrong');
  s.writeFile('/tmp/sibling.txt', 'round ' + n);
  if (new TextDecoder().decode(s.readFile('/tmp/sibling.txt')) !== 'round ' + n) throw new Error('read back wrong');
  n++;
  if (n % 20 === 0) {
    try { s.stat('/tmp/fuzz.json'); break; } catch {}
  }
  if (n > 1e6) throw new Error('the fuzzer never finished');
}
s.writeFile('/tmp/sibling.json', JSON.stringify({ rounds: n }));
`;
