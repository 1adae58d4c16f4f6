// The line discipline on its own (kernel/tty/ldisc.ts): canonical editing,
// echo, keyboard signals, input and output processing, mode switches.
// Expectations follow Linux's n_tty with `stty sane` settings.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SIGINT, SIGQUIT, SIGTSTP } from '../../src/abi/signal.js';
import { ECHO, ECHOCTL, ECHOE, ECHOKE, ICANON, ICRNL, ISIG, NOFLSH, ONLCR, OPOST, VEOF, VMIN } from '../../src/abi/termios.js';
import { LineDiscipline } from '../../src/kernel/tty/ldisc.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

function ldisc() {
  let echoed: number[] = [];
  const signals: number[] = [];
  const l = new LineDiscipline({ output: (b) => echoed.push(...b), signal: (s) => signals.push(s) });
  return {
    l,
    signals,
    type: (s: string) => l.receive(enc.encode(s)),
    echo: () => {
      const s = dec.decode(Uint8Array.from(echoed));
      echoed = [];
      return s;
    },
    read: (max = 4096) => {
      const b = l.take(max);
      return b === null ? null : dec.decode(b);
    },
    set: (f: (t: LineDiscipline['termios']) => void) => {
      const t = { ...l.termios, cc: [...l.termios.cc] };
      f(t);
      l.setTermios(t);
    },
  };
}

test('canonical mode: nothing to read until the line ends; CR becomes NL (ICRNL) and echoes as CRLF (ONLCR)', () => {
  const t = ldisc();
  t.type('echo hi');
  assert.equal(t.read(), null);
  assert.equal(t.echo(), 'echo hi');
  t.type('\r');
  assert.equal(t.echo(), '\r\n');
  assert.equal(t.read(), 'echo hi\n');
  assert.equal(t.read(), null);
});

test('a read returns at most one line, and a short read leaves the rest of it', () => {
  const t = ldisc();
  t.type('one\ntwo\n');
  assert.equal(t.read(2), 'on');
  assert.equal(t.read(), 'e\n');
  assert.equal(t.read(), 'two\n');
});

test('ERASE, WERASE and KILL edit the line and erase on screen (ECHOE, ECHOKE)', () => {
  const t = ldisc();
  t.type('abc\x7f');
  assert.equal(t.echo(), 'abc\b \b');
  t.type('d foo bar\x17');
  assert.equal(t.echo(), 'd foo bar\b \b\b \b\b \b');
  t.type('\n');
  assert.equal(t.read(), 'abd foo \n');
  t.type('gone\x15kept\n');
  assert.equal(t.read(), 'kept\n');
});

test('ERASE removes a whole UTF-8 character (IUTF8) and a ^X form takes two columns', () => {
  const t = ldisc();
  t.type('aé\x7f\n');
  assert.equal(t.read(), 'a\n');
  t.echo();
  t.type('\x01');
  assert.equal(t.echo(), '^A');
  t.type('\x7f');
  assert.equal(t.echo(), '\b \b\b \b');
});

test('EOF (^D) ends a line without a newline; on an empty line the read is 0 bytes', () => {
  const t = ldisc();
  t.type('abc\x04');
  assert.equal(t.read(), 'abc');
  t.type('\x04');
  assert.equal(t.read(), '');
  assert.equal(t.read(), null);
});

test('LNEXT (^V) quotes the next character: ^C goes into the line instead of signalling', () => {
  const t = ldisc();
  t.type('a\x16\x03\n');
  assert.deepEqual(t.signals, []);
  assert.equal(t.read(), 'a\x03\n');
});

test('ISIG: ^C, ^\\ and ^Z signal the foreground group, echo as ^C and flush the line', () => {
  const t = ldisc();
  t.type('partial\x03');
  assert.deepEqual(t.signals, [SIGINT]);
  assert.equal(t.echo(), 'partial^C');
  t.type('\n');
  assert.equal(t.read(), '\n');
  t.type('\x1c\x1a');
  assert.deepEqual(t.signals, [SIGINT, SIGQUIT, SIGTSTP]);
});

test('NOFLSH keeps the line across a signal; -ISIG makes ^C an ordinary byte', () => {
  const t = ldisc();
  t.set((x) => (x.lflag |= NOFLSH));
  t.type('keep\x03\n');
  assert.equal(t.read(), 'keep\n');
  t.set((x) => (x.lflag &= ~ISIG));
  t.type('\x03\n');
  assert.equal(t.read(), '\x03\n');
  assert.deepEqual(t.signals, [SIGINT]);
});

test('raw mode (-ICANON): bytes are readable at once, no editing; -ECHO shows nothing', () => {
  const t = ldisc();
  t.set((x) => {
    x.lflag &= ~(ICANON | ECHO);
    x.cc[VMIN] = 1;
  });
  t.type('a\x7fb');
  assert.equal(t.echo(), '');
  assert.equal(t.read(), 'a\x7fb');
});

test('switching to raw mode hands over the line being edited; -ICRNL keeps CR', () => {
  const t = ldisc();
  t.type('half');
  t.set((x) => (x.lflag &= ~ICANON));
  assert.equal(t.read(), 'half');
  t.set((x) => (x.iflag &= ~ICRNL));
  t.type('\r');
  assert.equal(t.read(), '\r');
});

test('-ECHOE echoes the ERASE character itself; -ECHOCTL echoes control bytes raw', () => {
  const t = ldisc();
  t.set((x) => (x.lflag &= ~(ECHOE | ECHOKE | ECHOCTL)));
  t.type('ab\x7f');
  assert.equal(t.echo(), 'ab\x7f');
  t.type('\x01');
  assert.equal(t.echo(), '\x01');
});

test('output processing: ONLCR maps NL to CRLF; -OPOST passes bytes through; a changed VEOF is honoured', () => {
  const t = ldisc();
  assert.equal(dec.decode(Uint8Array.from(t.l.process(enc.encode('a\nb\n')))), 'a\r\nb\r\n');
  t.set((x) => (x.oflag &= ~ONLCR));
  assert.equal(dec.decode(Uint8Array.from(t.l.process(enc.encode('a\n')))), 'a\n');
  t.set((x) => {
    x.oflag = OPOST | ONLCR;
    x.cc[VEOF] = 0x01;
  });
  t.type('x\x01');
  assert.equal(t.read(), 'x');
});
