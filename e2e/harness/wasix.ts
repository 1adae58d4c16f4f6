// The WASIX confinement probes for e2e/wasm.spec.ts: a WASIX program held
// running (so the spec can reach into Wasmer's workers), what the pool looks
// like after WASIX programs ended, and the Worker stand-in driven from the page.

import { boot } from '../../src/host/browser/index.js';
import type { Machine } from '../../src/host/api/machine.js';
import { sdkModuleUrl, sdkWorkerUrl, wasmerWorkerShim } from '../../src/host/browser/worker/wasmer-workers.js';
import { SIGKILL } from '../../src/abi/signal.js';
import { readUntil, spawnPiped } from '../../test/kernel/pipes.js';
import { installWasm } from '../../test/runtimes/wasm/cases.js';

const dec = new TextDecoder();
let held: { m: Machine; pid: number; fds: number[] } | null = null;

/** A JS program that says whether its process worker has a Worker constructor. */
const WORKER_CHECK = '#!/usr/libexec/agentos/js\nagentos.print(typeof Worker + "\\n");\n';

export function wasixProbes(loadWasm: () => Promise<Record<string, Uint8Array>>) {
  return {
    /** Start `wasix` waiting for stdin in a fresh VM; its first output. */
    async wasixHold(): Promise<string> {
      const m = await boot();
      await installWasm(m, await loadWasm());
      await m.mkdirp('/tmp/wx');
      await m.writeFile('/tmp/wx/in.txt', 'hi\n');
      await m.writeFile('/tmp/w.js', WORKER_CHECK, 0o755);
      const [pid, inW, outR] = await spawnPiped(m, ['/usr/local/wasm/wasix'], '/tmp/wx');
      held = { m, pid, fds: [inW, outR] };
      return readUntil(m, outR, 'cwd /workspace\n');
    },

    /**
     * SIGKILL the held program; run another to its end (the retire path); then
     * `typeof Worker` in process workers of the pool, several times.
     */
    async wasixRelease(): Promise<{ killed: number; ran: string; after: string[] }> {
      const { m, pid, fds } = held!;
      held = null;
      try {
        await m.kill(pid, SIGKILL);
        const killed = await m.wait(pid);
        for (const fd of fds) await m.syscall('close', fd);
        const r = await m.run(['/bin/sh', '-c', 'echo piped | /usr/local/wasm/wasix; echo "status $?"'], { cwd: '/tmp/wx' });
        const after: string[] = [];
        for (let i = 0; i < 6; i++) after.push(dec.decode((await m.run(['/tmp/w.js'])).stdout));
        return { killed, ran: dec.decode(r.stdout), after };
      } finally {
        await m.stop();
      }
    },

    /** The stand-in on the page's own Worker: what it refuses, and an init naming a foreign module; the worker stays up. */
    async wasmerShim(): Promise<{ refused: Record<string, string>; foreignInit: string }> {
      const Shim = wasmerWorkerShim(Worker);
      const blob = URL.createObjectURL(new Blob(['postMessage("pwned")'], { type: 'text/javascript' }));
      const refused: Record<string, string> = {};
      const urls = {
        otherOrigin: 'https://example.com/vendor/wasmer-sdk/dist/browser-worker.js',
        blob,
        data: 'data:text/javascript,postMessage("pwned")',
        sdkModule: sdkModuleUrl(),
        sameOriginOther: new URL('/e2e/harness/x.js', location.origin).href,
      };
      for (const [name, url] of Object.entries(urls)) {
        try {
          new Shim(url, { type: 'module' }).terminate();
          refused[name] = 'STARTED';
        } catch (e) {
          refused[name] = (e as Error).name;
        }
      }
      URL.revokeObjectURL(blob);
      const w = new Shim(sdkWorkerUrl(), { type: 'module' });
      const foreignInit = await new Promise<string>((done) => {
        w.onerror = (e) => {
          e.preventDefault();
          done(`error: ${e.message}`);
        };
        w.onmessage = (e: MessageEvent) => done(`message: ${JSON.stringify(e.data)}`);
        w.postMessage({ type: 'init', id: 0, sdkUrl: 'data:text/javascript,postMessage("pwned")' });
        setTimeout(() => done('no answer'), 10_000);
      });
      // Left running (idle, confined) for the spec to probe from inside; the page's end ends it.
      return { refused, foreignInit };
    },
  };
}
