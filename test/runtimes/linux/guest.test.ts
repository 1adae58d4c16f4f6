// The host side of the guest's agent protocol (guest.ts) against a stand-in emulator: what a
// hostile guest can write to its serial ports (it is root there) must not grow the host's memory
// without end, and nothing a job started may outlive it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Guest } from '../../../src/runtimes/linux/guest.js';
import type { P9Server } from '../../../src/runtimes/linux/p9.js';

/** The emulator's serial ports: bytes the guest writes, lines the host sends. */
class FakeEmulator {
  sent: string[] = [];
  private listeners = new Map<string, (b: number) => void>();
  add_listener(name: string, f: (b: number) => void): void {
    this.listeners.set(name, f);
  }
  serial0_send(s: string): void {
    this.sent.push(s);
  }
  write(port: number, s: string): void {
    const f = this.listeners.get(`serial${port}-output-byte`)!;
    for (let i = 0; i < s.length; i++) f(s.charCodeAt(i));
  }
}

function guest(): { g: Guest; em: FakeEmulator } {
  const em = new FakeEmulator();
  const Ctor = Guest as unknown as new (e: FakeEmulator, s: P9Server | null) => Guest;
  return { g: new Ctor(em, null), em };
}

/** The tag the host gave the job it just started (its G line). */
function tagOf(em: FakeEmulator): string {
  return /G([0-9a-f]+)\n$/.exec(em.sent.at(-1)!)![1];
}

function drained(g: Guest): string {
  let s = '';
  g.drain({ stdout: (b) => (s += `1:${Buffer.from(b).toString('latin1')}`), stderr: (b) => (s += `2:${Buffer.from(b).toString('latin1')}`) });
  return s;
}

test('output written between jobs is dropped, not kept in the host', () => {
  const { g, em } = guest();
  em.write(1, 'x'.repeat(100_000));
  em.write(2, 'y'.repeat(100_000));
  assert.equal(drained(g), '');
  const ended = g.run('A/bin/true\n');
  em.write(1, 'out');
  em.write(0, `\x02X${tagOf(em)} 0\n`);
  em.write(1, 'late');
  assert.equal(drained(g), '1:out');
  return ended.then((status) => assert.equal(status, 0));
});

test('a control line with no end is bounded; the next line is still read', async () => {
  const { g, em } = guest();
  const ended = g.run('A/bin/true\n');
  em.write(0, 'z'.repeat(1_000_000));
  assert.ok((g as unknown as { control: string }).control.length <= 1024);
  em.write(0, `\n\x02X${tagOf(em)} 3\n`);
  assert.equal(await ended, 3);
});

test("a job's end kills every guest process the job left behind", async () => {
  const { g, em } = guest();
  const ended = g.run('A/bin/true\n');
  em.write(0, `\x02X${tagOf(em)} 0\n`);
  await ended;
  assert.equal(em.sent.at(-1), 'K9\n');
});

test("only the running job's status line ends it: an untagged one or another job's is ignored", async () => {
  const { g, em } = guest();
  const first = g.run('A/bin/true\n');
  const tag1 = tagOf(em);
  em.write(0, `\x02X${tag1} 0\n`);
  assert.equal(await first, 0);
  let done: number | null | undefined;
  const second = g.run('A/bin/true\n');
  void second.then((s) => (done = s));
  const tag2 = tagOf(em);
  assert.notEqual(tag2, tag1);
  em.write(0, `\x02X0\n\x02X${tag1} 137\n\x02X${tag2}0\n\x02X${tag2.slice(1)} 9\n`);
  await new Promise((ok) => setImmediate(ok));
  assert.equal(done, undefined);
  em.write(0, `\x02X${tag2} 5\n`);
  assert.equal(await second, 5);
});
