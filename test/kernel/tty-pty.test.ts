// Pseudo-terminals in a booted kernel: /dev/ptmx and /dev/pts/N, the
// controlling terminal of a session, VMIN/VTIME reads, job control
// (foreground group, SIGTTIN/SIGTTOU, keyboard signals), SIGWINCH on resize
// and SIGHUP on hangup. The host is the terminal (it holds the master); a
// small guest program is the session leader.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Errno, SysError } from '../../src/abi/errno.js';
import { O_CLOEXEC, O_NOCTTY, O_RDWR } from '../../src/abi/fcntl.js';
import { SIGHUP, SIGINT, SIGTTIN, SIGTTOU } from '../../src/abi/signal.js';
import { TCGETS, TIOCGPGRP, TIOCGPTN, TIOCSWINSZ } from '../../src/abi/termios.js';
import { WIFSIGNALED, WTERMSIG } from '../../src/abi/wait.js';
import { boot, type Machine } from '../../src/host/node/index.js';

// The guest: `probe MODE [ARGS]`, a JS program with the agentos API. Its
// stdin/stdout are the terminal; it reports on stdout (the master reads it).
const PROBE = `#!/usr/libexec/agentos/js
const s = agentos.sys;
const [self, mode, a, b] = agentos.argv;
const say = (t) => s.writeAll(1, t + '\\n');
const TCGETS = 0x5401, TCSETS = 0x5402, TIOCSPGRP = 0x5410, TIOCGWINSZ = 0x5413;
// Like a shell, the leader blocks SIGTTOU: it takes the terminal back from the background.
if (['bgread', 'bgwrite', 'fgkill', 'spawnfg'].includes(mode)) s.sigprocmask(0, 1 << 22);
const spawnChild = (m) => s.spawn({ path: self, argv: [self, m], pgid: 0 });
const report = (st) => ((st & 0xff) === 0x7f ? 'stopped ' + ((st >> 8) & 0xff) : (st & 0x7f) ? 'signalled ' + (st & 0x7f) : 'exit ' + (st >> 8));
if (mode === 'vtime') {
  const t = s.ioctl(0, TCGETS);
  t.lflag &= ~(2 | 8); t.cc[6] = Number(a); t.cc[5] = Number(b);
  s.ioctl(0, TCSETS, t);
  say('ready');
  const t0 = Date.now();
  const got = s.read(0, 100);
  say('got ' + got.length + ' after ' + (Date.now() - t0));
} else if (mode === 'bgread' || mode === 'bgwrite') {
  if (mode === 'bgwrite') { const t = s.ioctl(0, TCGETS); t.lflag |= 0o400; s.ioctl(0, TCSETS, t); }
  const pid = spawnChild(mode === 'bgread' ? 'reader' : 'writer');
  say(report(s.waitpid(pid, 2)[1]));
  s.ioctl(0, TIOCSPGRP, pid);
  s.kill(-pid, 18);
  say('fg ' + s.ioctl(0, 0x540f));
  const st = s.waitpid(pid, 2)[1];
  s.ioctl(0, TIOCSPGRP, s.getpid());
  say(report(st));
} else if (mode === 'reader') {
  say('child got ' + new TextDecoder().decode(s.read(0, 100)).trim());
} else if (mode === 'writer') {
  say('child wrote');
} else if (mode === 'fgreader') {
  // As a job-control shell's child does: wait to be the foreground before reading.
  while (s.ioctl(0, 0x540f) !== s.getpid()) s.sleep(5);
  say('child got ' + new TextDecoder().decode(s.read(0, 100)).trim());
} else if (mode === 'fgkill') {
  const pid = spawnChild('fgreader');
  s.ioctl(0, TIOCSPGRP, pid);
  say('child in fg');
  const st = s.waitpid(pid, 2)[1];
  s.ioctl(0, TIOCSPGRP, s.getpid());
  say(report(st));
} else if (mode === 'winch') {
  agentos.signal(28, () => { const w = s.ioctl(0, TIOCGWINSZ); say('winch ' + w.rows + 'x' + w.cols); });
  say('ready');
  for (;;) {
    try { if (new TextDecoder().decode(s.read(0, 100)).startsWith('q')) break; } catch (e) { if (e.errno !== 4) throw e; }
  }
} else if (mode === 'devtty') {
  const fd = s.open('/dev/tty', 2);
  s.writeAll(fd, 'via /dev/tty pgrp=' + s.ioctl(fd, 0x540f) + ' sid=' + s.ioctl(fd, 0x5429) + ' me=' + s.getpid() + '\\n');
} else if (mode === 'spawnfg') {
  // The leader never calls tcsetpgrp: only the spawn option can make the child the foreground.
  for (const foreground of [false, true]) {
    const pid = s.spawn({ path: self, argv: [self, 'amifg'], pgid: 0, foreground });
    s.waitpid(pid, 0);
    s.ioctl(0, TIOCSPGRP, s.getpid()); // back to the leader for the next one
  }
} else if (mode === 'amifg') {
  // The child's very first look: is its group the terminal's foreground?
  const fg = s.ioctl(0, 0x540f) === s.getpgid(0);
  say(fg ? 'child in the foreground' : 'child in the background');
} else if (mode === 'wait') {
  say('ready');
  s.read(0, 100);
}
`;

let m: Machine;
const dec = new TextDecoder();

before(async () => {
  m = await boot();
  await m.writeFile('/usr/local/bin/probe', PROBE, 0o755);
});
after(async () => {
  await m.stop();
});

interface Pty {
  master: number;
  pid: number;
  /** Everything read from the master so far. */
  out: () => string;
  until: (re: RegExp, ms?: number) => Promise<RegExpExecArray>;
  send: (s: string) => Promise<void>;
  status: () => Promise<number>;
  close: () => Promise<void>;
}

async function session(argv: string[]): Promise<Pty> {
  const master = (await m.syscall('open', '/dev/ptmx', O_RDWR | O_NOCTTY | O_CLOEXEC)) as number;
  const n = (await m.syscall('ioctl', master, TIOCGPTN)) as number;
  const slave = (await m.syscall('open', `/dev/pts/${n}`, O_RDWR | O_NOCTTY)) as number;
  const pid = (await m.syscall('spawn', {
    path: '/usr/local/bin/probe', argv: ['/usr/local/bin/probe', ...argv], env: [], fds: [[0, slave], [1, slave], [2, slave]], setsid: true, ctty: 0,
  })) as number;
  await m.syscall('close', slave);
  let text = '';
  let open = true;
  void (async () => {
    while (open) {
      try {
        text += dec.decode((await m.syscall('read', master, 4096)) as Uint8Array);
      } catch {
        return;
      }
    }
  })();
  const until = async (re: RegExp, ms = 5000) => {
    const end = Date.now() + ms;
    for (;;) {
      const hit = re.exec(text);
      if (hit) return hit;
      if (Date.now() > end) throw new Error(`no ${re} in ${JSON.stringify(text)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return {
    master, pid, until, out: () => text,
    send: async (s) => void (await m.syscall('write', master, new TextEncoder().encode(s))),
    status: () => m.wait(pid),
    close: async () => {
      open = false;
      await m.syscall('close', master).catch(() => {});
    },
  };
}

test('/dev/ptmx makes /dev/pts/N, a terminal (isatty, TCGETS), gone once both ends close', async () => {
  const master = (await m.syscall('open', '/dev/ptmx', O_RDWR | O_NOCTTY)) as number;
  const n = (await m.syscall('ioctl', master, TIOCGPTN)) as number;
  const st = await m.stat(`/dev/pts/${n}`);
  assert.equal(st.mode & 0o170000, 0o020000);
  const slave = (await m.syscall('open', `/dev/pts/${n}`, O_RDWR | O_NOCTTY)) as number;
  assert.equal(await m.syscall('isatty', slave), true);
  const t = (await m.syscall('ioctl', slave, TCGETS)) as { lflag: number };
  assert.ok(t.lflag & 2, 'ICANON by default');
  await m.syscall('close', master);
  await assert.rejects(m.syscall('write', slave, new Uint8Array([0x41])), (e: SysError) => e.errno === Errno.EIO);
  await m.syscall('close', slave);
  await assert.rejects(m.stat(`/dev/pts/${n}`), (e: SysError) => e.errno === Errno.ENOENT);
});

test('/dev/tty is the caller\'s controlling terminal, and ENXIO without one', async () => {
  await assert.rejects(m.syscall('open', '/dev/tty', O_RDWR), (e: SysError) => e.errno === Errno.ENXIO);
  const p = await session(['devtty']);
  const hit = await p.until(/via \/dev\/tty pgrp=(\d+) sid=(\d+) me=(\d+)/);
  assert.equal(hit[1], hit[3]);
  assert.equal(hit[2], hit[3]);
  assert.equal(await p.status(), 0);
  await p.close();
});

test('VMIN/VTIME: MIN 0 TIME t times out with 0 bytes; MIN n waits for n bytes; MIN 0 TIME 0 polls', async () => {
  let p = await session(['vtime', '0', '3']);
  let hit = await p.until(/got (\d+) after (\d+)/);
  assert.equal(hit[1], '0');
  assert.ok(Number(hit[2]) >= 250 && Number(hit[2]) < 2000, `timed out after ${hit[2]} ms`);
  await p.close();

  p = await session(['vtime', '3', '0']);
  await p.until(/ready/);
  await p.send('ab');
  await new Promise((r) => setTimeout(r, 200));
  assert.doesNotMatch(p.out(), /got/);
  await p.send('c');
  hit = await p.until(/got (\d+)/);
  assert.equal(hit[1], '3');
  await p.close();

  p = await session(['vtime', '0', '0']);
  hit = await p.until(/got (\d+) after (\d+)/);
  assert.equal(hit[1], '0');
  assert.ok(Number(hit[2]) < 200);
  await p.close();

  // MIN 5, TIME 2: the inter-byte timer ends a read that has fewer bytes.
  p = await session(['vtime', '5', '2']);
  await p.until(/ready/);
  await p.send('x');
  hit = await p.until(/got (\d+)/);
  assert.equal(hit[1], '1');
  await p.close();
});

test('a background group reading the terminal is stopped by SIGTTIN; in the foreground it reads', async () => {
  const p = await session(['bgread']);
  await p.until(new RegExp(`stopped ${SIGTTIN}`));
  const fg = await p.until(/fg (\d+)/);
  assert.notEqual(Number(fg[1]), p.pid);
  await p.send('hello\r');
  await p.until(/child got hello/);
  await p.until(/exit 0/);
  await p.close();
});

test('with TOSTOP a background write stops the writer with SIGTTOU', async () => {
  const p = await session(['bgwrite']);
  await p.until(new RegExp(`stopped ${SIGTTOU}`));
  await p.until(/child wrote/);
  await p.until(/exit 0/);
  await p.close();
});

test('^C signals the foreground group only: the child dies, the session leader reports it', async () => {
  const p = await session(['fgkill']);
  await p.until(/child in fg/);
  const pgrp = (await m.syscall('ioctl', p.master, TIOCGPGRP)) as number;
  assert.notEqual(pgrp, p.pid);
  await p.send('\x03');
  await p.until(new RegExp(`signalled ${SIGINT}`));
  assert.equal(await p.status(), 0);
  await p.close();
});

test('a resize sends SIGWINCH to the foreground group with the new size', async () => {
  const p = await session(['winch']);
  await p.until(/ready/);
  await m.syscall('ioctl', p.master, TIOCSWINSZ, { rows: 50, cols: 132 });
  await p.until(/winch 50x132/);
  await m.syscall('ioctl', p.master, TIOCSWINSZ, { rows: 50, cols: 132 }); // unchanged: no signal
  await p.send('q\r');
  assert.equal(await p.status(), 0);
  assert.equal(p.out().match(/winch/g)?.length, 1);
  await p.close();
});

test('closing the master hangs up: the session leader gets SIGHUP', async () => {
  const p = await session(['wait']);
  await p.until(/ready/);
  await p.close();
  const st = await p.status();
  assert.ok(WIFSIGNALED(st));
  assert.equal(WTERMSIG(st), SIGHUP);
});

test('a terminal controls one session: a second session cannot take it; the leader\'s exit status is its own', async () => {
  const p = await session(['wait']);
  await p.until(/ready/);
  const n = (await m.syscall('ioctl', p.master, TIOCGPTN)) as number;
  const slave = (await m.syscall('open', `/dev/pts/${n}`, O_RDWR | O_NOCTTY)) as number;
  await assert.rejects(
    m.syscall('spawn', { path: '/usr/local/bin/probe', argv: ['probe', 'wait'], env: [], fds: [[0, slave]], setsid: true, ctty: 0 }),
    (e: SysError) => e.errno === Errno.EPERM,
  );
  await m.syscall('close', slave);
  await p.send('\r');
  assert.equal(await p.status(), 0); // not SIGHUP: its own exit releases the terminal
  await p.close();
});

test('spawn with foreground: the new group owns the terminal before the child runs (no SIGTTOU race)', async () => {
  const t = await session(['spawnfg']);
  await t.until(/in the background\r\n[^]*in the foreground\r\n/);
  assert.equal(await t.status(), 0);
  await t.close();
});

test('/proc/<pid>/stat names the controlling terminal and its foreground group (ps shows pts/N)', async () => {
  const p = await session(['wait']);
  await p.until(/ready/);
  const n = (await m.syscall('ioctl', p.master, TIOCGPTN)) as number;
  const stat = dec.decode(await m.readFile(`/proc/${p.pid}/stat`));
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  assert.equal(Number(fields[4]), (136 << 8) | n); // tty_nr
  assert.equal(Number(fields[5]), p.pid); // tpgid
  await p.send('\r');
  await p.status();
  await p.close();
});
