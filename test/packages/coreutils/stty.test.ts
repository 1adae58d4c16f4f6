// stty against a terminal. The kernel has no terminal yet, so agentOS's stty
// runs in-process over a stand-in device answering the termios ioctls the way a
// Linux pty does (it keeps what it is given); GNU stty runs on a real pty from
// script(1) starting from the same settings. Both then print -g, -a, the
// default listing, size and speed, which must match byte for byte.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { Errno, SysError } from '../../../src/abi/errno.js';
import { TCGETS, TCSETS, TCSETSF, TCSETSW, TIOCGWINSZ, TIOCSWINSZ, type Termios, type Winsize } from '../../../src/abi/termios.js';
import type { AgentosApi } from '../../../src/runtimes/js/api.js';
import { stty } from '../../../src/packages/coreutils/programs/stty.js';

const hasScript = spawnSync('sh', ['-c', 'command -v script && command -v stty'], { encoding: 'utf8' }).status === 0;

/** Run commands on a fresh pty (24x80); the pty turns \n into \r\n, which is undone. */
function onPty(commands: string): string {
  const r = spawnSync('script', ['-q', '-E', 'never', '-ec', `stty rows 24 cols 80; ${commands}`, '/dev/null'], {
    encoding: 'latin1',
    env: { PATH: '/usr/bin:/bin', LANG: 'C', LC_ALL: 'C' },
  });
  return r.stdout.replace(/\r/g, '');
}

function parseSaved(g: string, speed: number): Termios {
  const n = g.trim().split(':').map((x) => parseInt(x, 16));
  return { iflag: n[0], oflag: n[1], cflag: n[2], lflag: n[3], line: 0, cc: n.slice(4), ispeed: speed, ospeed: speed };
}

/** A terminal for one sequence of stty runs: its settings, window size, and everything written to it. */
class FakeTty {
  out = '';
  private w: Winsize = { rows: 24, cols: 80 };

  constructor(private t: Termios) {}

  run(args: string[]): number {
    const sys = {
      isatty: () => true,
      writeAll: (_fd: number, d: Uint8Array | string) => {
        this.out += typeof d === 'string' ? d : Buffer.from(d).toString('latin1');
      },
      ioctl: (_fd: number, req: number, arg: unknown) => {
        if (req === TCGETS) return structuredClone(this.t);
        if (req === TCSETS || req === TCSETSW || req === TCSETSF) this.t = structuredClone(arg as Termios);
        else if (req === TIOCGWINSZ) return { ...this.w };
        else if (req === TIOCSWINSZ) this.w = { ...(arg as Winsize) };
        else throw new SysError(Errno.ENOTTY);
        return 0;
      },
    };
    const os = { argv: ['stty', ...args], env: {}, pid: 2, sys, SysError } as unknown as AgentosApi;
    return stty(os, args);
  }
}

const SETTINGS = [
  '', 'raw', '-raw', 'cooked', '-cooked', 'sane', '-echo -icanon min 5 time 2', 'intr ^A erase 0x08 kill undef',
  'susp ^- start ^Q eol a eol2 0177', 'litout', 'pass8', 'nl', '-nl', 'dec', 'ek', 'crt', 'tabs', '-tabs', 'cbreak',
  '-cbreak', 'cr2 tab3 nl1 bs1 vt1 ff1', '9600', 'cmspar', 'crtscts', 'line 2', 'rows 30 cols 100', 'columns 60',
  '-isig -iexten', 'ixany -ixon', 'iutf8', 'echoprt echoke -echoctl', 'decctlq', '-hupcl clocal',
];

test('stty: settings and displays match GNU stty on a pty', { skip: !hasScript && 'script(1) or stty missing' }, () => {
  const [saved, speed] = onPty('stty -g; stty speed').split('\n');
  const initial = parseSaved(saved, Number(speed));
  const show = [['-g'], ['-a'], [], ['size'], ['speed']];
  let checked = 0;
  for (const s of SETTINGS) {
    const args = s.split(' ').filter(Boolean);
    const gnu = onPty(`stty ${s}; echo "st=$?"; stty -g; stty -a; stty; stty size; stty speed`);
    const tty = new FakeTty(structuredClone(initial));
    const status = tty.run(args);
    tty.out += `st=${status}\n`;
    for (const a of show) tty.run(a);
    assert.equal(tty.out, gnu, `stty ${s}`);
    checked++;
  }
  assert.equal(checked, SETTINGS.length);
});

test('stty: without a terminal, the ioctl fails as on Linux', () => {
  const sys = {
    isatty: () => false,
    writeAll: (fd: number, d: Uint8Array | string) => {
      if (fd === 2) err += typeof d === 'string' ? d : Buffer.from(d).toString('latin1');
    },
    ioctl: () => {
      throw new SysError(Errno.ENOTTY);
    },
  };
  let err = '';
  const os = { argv: ['stty'], env: {}, pid: 2, sys, SysError } as unknown as AgentosApi;
  assert.equal(stty(os, ['-a']), 1);
  assert.equal(err, "stty: 'standard input': Inappropriate ioctl for device\n");
});
