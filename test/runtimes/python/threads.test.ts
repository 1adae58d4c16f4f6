// Python threads in agentOS (issue 16, item 8): Pyodide has no threads, so a
// started Thread runs to its end at start() (the differential suite checks
// the code whose answer does not depend on that). Here: what cannot work with
// one thread fails at once with a clear RuntimeError instead of hanging.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';

let vm: AgentVM;
before(async () => {
  vm = new AgentVM();
  await vm.start();
});
after(async () => {
  await vm?.stop();
});

async function py(code: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  await vm.writeFile('/tmp/t.py', code);
  return vm.exec('python3 /tmp/t.py');
}

// A regression would hang the program, not fail it: the timeout turns that into a failure.
test('a wait no thread can ever end raises RuntimeError (Lock, Event, Condition, Queue, Semaphore, Barrier)', { timeout: 60_000 }, async () => {
  const r = await py(`
import threading, queue
def tries(name, f):
    try:
        f()
        print(name, 'returned')
    except RuntimeError as e:
        print(name, str(e).split(':')[0])
l = threading.Lock(); l.acquire()
tries('lock', l.acquire)
tries('event', threading.Event().wait)
c = threading.Condition()
def cw():
    with c: c.wait()
tries('condition', cw)
tries('queue', queue.Queue().get)
tries('semaphore', threading.Semaphore(0).acquire)
tries('barrier', threading.Barrier(2).wait)
print(l.acquire(timeout=0.01), l.acquire(False), threading.Event().wait(0.01), queue.Queue().empty())
`);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, 'lock deadlock\nevent deadlock\ncondition deadlock\nqueue deadlock\nsemaphore deadlock\nbarrier deadlock\nFalse False False True\n');
});

test('a thread waiting for its starter fails in that thread (excepthook), and the program goes on', { timeout: 60_000 }, async () => {
  const r = await py(`
import threading
go = threading.Event()
t = threading.Thread(target=go.wait, name='waiter')
t.start()
go.set()
t.join()
print('after', t.is_alive(), go.is_set())
`);
  assert.equal(r.exitCode, 0);
  assert.match(r.stderr, /^Exception in thread waiter:\n[\s\S]*RuntimeError: deadlock: this wait can never end/);
  assert.equal(r.stdout, 'after False True\n');
});

test('current_thread, ident and is_alive while a thread runs', async () => {
  const r = await py(`
import threading
main = threading.get_ident()
seen = []
def f():
    t = threading.current_thread()
    seen.append((t.name, t.is_alive(), t.ident != main, threading.main_thread() is not t))
t = threading.Thread(target=f, name='w'); t.start(); t.join()
print(seen, threading.current_thread() is threading.main_thread(), t.ident is not None)
try:
    t.start()
except RuntimeError as e:
    print(e)
`);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, "[('w', True, True, True)] True True\nthreads can only be started once\n");
});
