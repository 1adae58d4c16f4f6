// A MiniBrowser that outlives its WebDriver sessions: WebKitWebDriver deletes
// the session when any page of it crashes ("session deleted because of page
// crash or hang"), and the MiniBrowser it launched keeps its data only in
// memory (automation mode is ephemeral). So the crash test launches MiniBrowser
// itself, with its remote inspector on a port (WEBKIT_INSPECTOR_SERVER), and a
// driver that connects to it (`--target`): after the crash a new session opens
// in the same browser, whose network process still holds the data.

import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { MINIBROWSER_ARGS } from '../../src/host/playwright/engine-webkit.js';
import { openEnginePage, type EnginePage } from '../../src/host/playwright/index.js';

const freePort = () => new Promise<number>((ok) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => ok(port));
  });
});

const miniBrowser = (): string => {
  const found = readdirSync('/usr/lib').map((d) => `/usr/lib/${d}/webkit2gtk-4.1/MiniBrowser`).find((p) => existsSync(p));
  if (!found) throw new Error('no MiniBrowser under /usr/lib/*/webkit2gtk-4.1 (Debian package libwebkit2gtk-4.1-0)');
  return found;
};

export interface TargetBrowser {
  /** The process group leader: MiniBrowser, its web and network processes and the driver descend from it. */
  pid: number;
  /** A new WebDriver session (a page) in the same MiniBrowser; retried for up to 30 s while the browser starts. */
  open(): Promise<EnginePage>;
  close(): void;
}

export async function launchTargetBrowser(): Promise<TargetBrowser> {
  const [driverPort, inspectorPort] = [await freePort(), await freePort()];
  const script = `"$0" ${MINIBROWSER_ARGS.join(' ')} & exec /usr/bin/WebKitWebDriver --port=${driverPort} --host=127.0.0.1 --target=127.0.0.1:${inspectorPort}`;
  const argv = ['sh', '-c', script, miniBrowser()];
  const headless = !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
  const [cmd, ...args] = headless ? ['/usr/bin/xvfb-run', '-a', ...argv] : argv;
  const child = spawn(cmd, args, {
    stdio: 'ignore',
    detached: true, // its own process group, ended as one
    env: { ...process.env, JSC_useSharedArrayBuffer: '1', WEBKIT_INSPECTOR_SERVER: `127.0.0.1:${inspectorPort}` },
  });
  const close = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  };
  return {
    pid: child.pid!,
    close,
    async open() {
      const deadline = Date.now() + 30_000;
      for (;;) {
        try {
          return await openEnginePage('webkit', { endpoint: `http://127.0.0.1:${driverPort}` });
        } catch (e) {
          if (Date.now() > deadline) throw new Error(`MiniBrowser with its inspector on ${inspectorPort}: no WebDriver session within 30 s (${(e as Error).message})`);
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    },
  };
}
