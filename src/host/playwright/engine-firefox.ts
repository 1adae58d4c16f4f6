// EnginePage in Firefox (Debian's firefox-esr) over Marionette, the WebDriver
// classic protocol Firefox speaks itself (marionette-client.ts). Not WebDriver
// BiDi: a BiDi session makes Firefox's Remote Agent watch every worker of the
// content process, and a worker that creates and ends nested workers — the
// kernel, once per process — then blocks for good (decision 0066,
// docs/upstream/firefox-bidi-nested-workers.md). A Marionette session has one
// browser, so each page gets a Firefox (and a fresh profile: its own storage)
// of its own.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE_DEFAULTS, within, type EngineOptions, type EnginePage } from './engine-page.js';
import { MarionetteClient } from './marionette-client.js';

/** Prefs for an automated profile: Marionette on a free port (written to MarionetteActivePort), no first-run pages. */
const PREFS: Record<string, string | number | boolean> = {
  'marionette.port': 0,
  'browser.shell.checkDefaultBrowser': false,
  'browser.aboutwelcome.enabled': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.reportingpolicy.firstRun': false,
};

export function firefoxPath(o: EngineOptions): string {
  const path = o.executablePath ?? ENGINE_DEFAULTS.firefox.path;
  if (!existsSync(path)) throw new Error(`BrowserVM: no Firefox at ${path} (install Debian's ${ENGINE_DEFAULTS.firefox.pkg}, or name the executable)`);
  return path;
}

/** Our prefs in the profile's user.js, its other lines kept. */
function writePrefs(profile: string): void {
  const file = join(profile, 'user.js');
  const kept = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() && !Object.keys(PREFS).some((k) => l.includes(`"${k}"`))) : [];
  writeFileSync(file, [...kept, ...Object.entries(PREFS).map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`)].join('\n') + '\n');
}

interface Launched {
  port: number;
  pid: number;
  close(): Promise<void>;
}

async function launch(o: EngineOptions): Promise<Launched> {
  const own = o.userDataDir === undefined;
  const profile = o.userDataDir ?? mkdtempSync(join(tmpdir(), 'agentos-firefox-'));
  writePrefs(profile);
  const portFile = join(profile, 'MarionetteActivePort');
  rmSync(portFile, { force: true });
  const args = [...((o.headless ?? true) ? ['--headless'] : []), '--no-remote', '--marionette', '-profile', profile];
  // Its own process group: close() ends Firefox and its content processes together.
  const child: ChildProcess = spawn(firefoxPath(o), args, { stdio: 'ignore', detached: true });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  let gone = false;
  void exited.then(() => (gone = true));
  const close = async () => {
    if (!gone) {
      signal(child, 'SIGTERM');
      if (!(await Promise.race([exited.then(() => true), new Promise((ok) => setTimeout(() => ok(false), 10_000))]))) signal(child, 'SIGKILL');
    }
    if (own) rmSync(profile, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  while (!existsSync(portFile) || !readFileSync(portFile, 'utf8').trim()) {
    if (gone || Date.now() > deadline) {
      await close();
      throw new Error(gone ? 'BrowserVM: Firefox exited before Marionette listened' : 'BrowserVM: Firefox did not start (no Marionette port within 90 s)');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.unref();
  return { port: Number(readFileSync(portFile, 'utf8').trim()), pid: child.pid!, close };
}

function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, sig);
  } catch {
    /* already gone */
  }
}

/** `endpoint`: a running Firefox's Marionette address, `host:port` (firefox --marionette). */
function parseEndpoint(endpoint: string): { host: string; port: number } {
  const m = /^(?:marionette:\/\/)?([^:/]+):(\d+)\/?$/.exec(endpoint);
  if (!m) throw new Error(`BrowserVM: Firefox's endpoint is a Marionette address host:port, not ${endpoint}`);
  return { host: m[1], port: Number(m[2]) };
}

export async function openFirefoxPage(o: EngineOptions): Promise<EnginePage> {
  const launched = o.endpoint === undefined ? await launch(o) : null;
  const { host, port } = launched ? { host: '127.0.0.1', port: launched.port } : parseEndpoint(o.endpoint!);
  let client: MarionetteClient;
  let version: string;
  try {
    client = await MarionetteClient.connect(host, port);
    const s = (await within(client.send('WebDriver:NewSession', {}), 60_000, 'BrowserVM: Firefox session')) as { capabilities: { browserVersion?: string } };
    version = `firefox/${s.capabilities.browserVersion ?? '?'}`;
    // Calls may run long (an exec with no timeout); the caller bounds them. Not `script: null`
    // (no limit in W3C): Marionette 153 then answers an async script null before it has ended.
    await client.send('WebDriver:SetTimeouts', { script: 2 ** 31 - 1, pageLoad: 120_000 });
  } catch (e) {
    await launched?.close();
    throw e;
  }
  let closing = false;
  return {
    engine: 'firefox',
    version,
    pid: launched?.pid,
    async goto(url, timeoutMs = 60_000) {
      await client.send('WebDriver:Navigate', { url }, timeoutMs);
    },
    async evaluate<T>(fn: string, arg?: unknown) {
      const r = (await client.send(
        'WebDriver:ExecuteAsyncScript',
        {
          // The page's own eval: Marionette runs the script in a sandbox whose globals are not the page's.
          script: 'const [f, a, done] = arguments; Promise.resolve().then(() => window.eval("(" + f + ")")(a)).then((v) => done({ ok: true, v: v === undefined ? null : v }), (e) => done({ ok: false, m: String(e && e.message || e) }));',
          args: [fn, arg ?? null],
        },
        0,
      )) as { value: { ok: boolean; v?: T; m?: string } };
      if (!r.value.ok) throw new Error(r.value.m);
      return r.value.v as T;
    },
    async newTab() {
      const r = (await client.send('WebDriver:NewWindow', { type: 'tab' }, 30_000)) as { handle?: string; value?: { handle: string } };
      await client.send('WebDriver:SwitchToWindow', { handle: r.value?.handle ?? r.handle, focus: true }, 30_000);
    },
    onLost(listener) {
      client.onClosed(() => closing || listener('the browser exited'));
    },
    async close() {
      closing = true;
      // A Firefox of our own quits (its profile written out cleanly); a remote one only loses the session.
      await client.send(launched ? 'Marionette:Quit' : 'WebDriver:DeleteSession', {}, 10_000).catch(() => {});
      client.close();
      await launched?.close();
    },
  };
}
