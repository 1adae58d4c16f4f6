// BrowserVM: an agentOS VM in a headless browser, driven from Node, with
// AgentVM's interface. Chromium through Playwright (each BrowserVM one
// BrowserContext: its own storage, its own kernel); Firefox and WebKit through
// an EnginePage (engine-page.ts), where page → Node events and approval
// requests travel by a long poll (event-pump.ts) instead of Playwright
// bindings. BrowserVMs with the same browser choice share one browser.

import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AgentVMOptions, Answer, ApprovalRequest } from '../api/agent-vm.js';
import { SandboxClient } from '../api/sandbox-client.js';
import type { VM } from '../api/vm.js';
import { checkPolicy } from '../../kernel/policy/types.js';
import { NetPolicy } from '../../kernel/net/policy.js';
import { serveApp } from './app.js';
import { acquireBrowser, chromiumPath, CHROMIUM_ARGS, loadPlaywright, type BrowserChoice } from './browsers.js';
import { openEnginePage, type Engine, type EnginePage } from './engine-page.js';
import { installPump, pumpEvents } from './event-pump.js';
import { APPROVAL_BINDING, EVENT_BINDING, SANDBOX_PAGE, type Reply, type SandboxApi, type SandboxEvent, type SandboxMethod, type SandboxWindow } from './protocol.js';

export interface BrowserVMOptions extends Omit<AgentVMOptions, 'state' | 'mounts'>, BrowserChoice {
  /**
   * A persistent VM of this name: its writable layer lives in the browser
   * context's IndexedDB. A fresh context starts empty, so the layer outlives
   * the BrowserVM only with `userDataDir` (and a fixed `port`: storage is per origin).
   */
  persist?: string;
  /** A browser profile directory of this VM's own (a Chromium of its own, not shared). */
  userDataDir?: string;
  /**
   * The engine: 'chromium' (default), 'firefox' (Debian's firefox-esr over Marionette) or
   * 'webkit' (WebKitGTK through WebKitWebDriver); or a Playwright Browser you launched or
   * connected, which stop() leaves open.
   */
  browser?: Browser | Engine;
  /** Firefox's executable or WebKitWebDriver's; default Debian's (/usr/bin/firefox-esr, /usr/bin/WebKitWebDriver). */
  executablePath?: string;
  /** WebKit: a running WebKitWebDriver (http://host:port) instead of launching one. (Firefox: wsEndpoint is a running Firefox's Marionette host:port, firefox --marionette.) */
  webDriverUrl?: string;
  /** The built app's directory; default dist/web beside this module. */
  app?: string;
  /** The app's base URL when it is served elsewhere (a remote browser cannot reach this host's localhost). */
  appUrl?: string;
  /** Port of the local app server; default 0, any free port. */
  port?: number;
  /** Page load plus kernel boot; default 60 s. */
  bootTimeoutMs?: number;
}

const unsupported = (what: string, why: string) => new Error(`BrowserVM: ${what} is not supported (${why})`);

const CALL = '({ m, a }) => globalThis.agentos.call(m, a)';

export class BrowserVM extends SandboxClient implements VM {
  private page: Page | null = null;
  /** Firefox and WebKit: the page, instead of a Playwright one. */
  private enginePage: EnginePage | null = null;
  private starting: Promise<void> | null = null;
  /** Undo what start() set up, in reverse order. */
  private cleanup: (() => Promise<void>)[] = [];
  private pageErrors: string[] = [];
  private gone: string | null = null;

  constructor(private readonly options: BrowserVMOptions = {}) {
    super('BrowserVM');
    const o = options as BrowserVMOptions & Pick<AgentVMOptions, 'state' | 'mounts'>;
    if (o.state !== undefined) throw unsupported('the state option', 'a BrowserVM keeps its layer in the browser: use persist with userDataDir');
    if (o.mounts !== undefined && Object.keys(o.mounts).length) throw unsupported('the mounts option', 'the browser cannot reach host directories');
    if (options.network !== undefined) void new NetPolicy(options.network);
    checkPolicy(options.policy);
    if (options.userDataDir !== undefined && ((options.browser && typeof options.browser !== 'string') || options.wsEndpoint || options.webDriverUrl)) throw new Error('BrowserVM: userDataDir launches a browser of its own; it cannot be combined with browser or wsEndpoint');
  }

  /** Open the browser context, load the sandbox page and boot the VM in it. */
  async start(): Promise<void> {
    if (this.page || this.enginePage) return;
    this.starting ??= this.open().catch(async (e: unknown) => {
      await this.teardown();
      this.starting = null;
      throw e;
    });
    await this.starting;
  }

  private async open(): Promise<void> {
    const o = this.options;
    const timeout = o.bootTimeoutMs ?? 60_000;
    let base = o.appUrl;
    if (base === undefined) {
      const app = await serveApp(o.app, o.port);
      this.cleanup.push(app.release);
      base = app.value;
    }
    const url = new URL(SANDBOX_PAGE, base).href;
    const engine = typeof o.browser === 'string' ? o.browser : 'chromium';
    if (engine !== 'chromium') return this.openEngine(engine, url, timeout);
    const context = await this.newContext();
    await context.exposeBinding(EVENT_BINDING, (_src, e: SandboxEvent) => this.event(e));
    await context.exposeFunction(APPROVAL_BINDING, (r: ApprovalRequest) => this.approve(r));
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => this.pageErrors.push(e.message));
    page.on('crash', () => this.lost('the page crashed'));
    page.on('close', () => this.lost('the page was closed'));
    await page.goto(url, { timeout });
    await page.waitForFunction(() => 'agentos' in globalThis, null, { timeout: 10_000 }).catch(() => {
      throw new Error(`BrowserVM: the sandbox page did not load (${this.pageErrors.join('; ') || 'no window.agentos'})`);
    });
    this.page = page;
    await this.boot();
  }

  private async boot(): Promise<void> {
    const o = this.options;
    await this.call('start', [{ persist: o.persist, env: o.env, cwd: o.cwd, policy: o.policy, network: o.network, approvals: o.onApproval !== undefined }]);
    await this.relisten();
  }

  /** Firefox or WebKit: the sandbox page in an EnginePage, its events pumped to this side. */
  private async openEngine(engine: Exclude<Engine, 'chromium'>, url: string, timeout: number): Promise<void> {
    const o = this.options;
    const page = await openEnginePage(engine, {
      executablePath: o.executablePath,
      endpoint: engine === 'webkit' ? o.webDriverUrl : o.wsEndpoint,
      userDataDir: o.userDataDir,
      headless: o.headless,
    });
    this.cleanup.push(() => page.close());
    page.onLost((why) => this.lost(why));
    await page.goto(url, timeout);
    const loaded = await page.evaluate<boolean>('(ms) => new Promise((ok) => { const t0 = Date.now(); const poll = () => "agentos" in globalThis ? ok(true) : Date.now() - t0 > ms ? ok(false) : setTimeout(poll, 50); poll(); })', 10_000);
    if (!loaded) throw new Error('BrowserVM: the sandbox page did not load (no window.agentos)');
    await page.evaluate(installPump, [EVENT_BINDING, APPROVAL_BINDING]);
    this.enginePage = page;
    void pumpEvents(page, {
      event: (e) => this.event(e),
      approve: (r) => this.approve(r),
      alive: () => this.enginePage === page && !this.gone,
    });
    await this.boot();
  }

  /** A context of its own: in the shared browser, or (userDataDir) a persistent one. */
  private async newContext(): Promise<BrowserContext> {
    const o = this.options;
    let context: BrowserContext;
    if (o.userDataDir !== undefined) {
      const { chromium } = await loadPlaywright();
      context = await chromium.launchPersistentContext(o.userDataDir, { executablePath: chromiumPath(o), headless: o.headless ?? true, args: CHROMIUM_ARGS });
    } else {
      let browser = typeof o.browser === 'string' ? undefined : o.browser;
      if (!browser) {
        const lease = await acquireBrowser(o);
        this.cleanup.push(lease.release);
        browser = lease.value;
      }
      context = await browser.newContext();
    }
    this.cleanup.push(() => context.close().catch(() => {}));
    return context;
  }

  private lost(why: string): void {
    this.gone ??= why;
    this.endTerminals();
  }

  private async approve(r: ApprovalRequest): Promise<Answer> {
    try {
      return (await this.options.onApproval?.(r)) ?? 'deny';
    } catch {
      return 'deny';
    }
  }

  protected get connected(): boolean {
    return (this.page !== null || this.enginePage !== null) && !this.gone;
  }

  /** One method of the page's window.agentos; its error rethrown here with its own message. */
  protected async call<M extends SandboxMethod>(method: M, args: Parameters<SandboxApi[M]>): Promise<Awaited<ReturnType<SandboxApi[M]>>> {
    const page = this.page;
    const ep = this.enginePage;
    if (!page && !ep) throw new Error('BrowserVM: not started (call start() first)');
    if (this.gone) throw new Error(`BrowserVM: ${this.gone}`);
    let r: Reply<unknown>;
    try {
      r = ep ? await ep.evaluate<Reply<unknown>>(CALL, { m: method, a: args }) : await page!.evaluate(([m, a]) => (globalThis as unknown as { agentos: SandboxWindow }).agentos.call(m, a as never), [method, args] as [SandboxMethod, unknown[]]);
    } catch (e) {
      throw new Error(`BrowserVM: ${this.gone ?? (e as Error).message}`);
    }
    if (!r.ok) throw Object.assign(new Error(r.message), r.code === undefined ? {} : { code: r.code });
    return r.value as Awaited<ReturnType<SandboxApi[M]>>;
  }

  /** The engine and browser version the VM runs in (after start()). */
  get engine(): { engine: Engine; version: string } {
    if (this.enginePage) return { engine: this.enginePage.engine, version: this.enginePage.version };
    if (!this.page) throw new Error('BrowserVM: not started (call start() first)');
    return { engine: 'chromium', version: this.page.context().browser()?.version() ?? '' };
  }

  /** The Playwright page the VM runs in (for screenshots, tracing, CDP); Chromium only. */
  get playwrightPage(): Page {
    if (this.enginePage) throw new Error(`BrowserVM: playwrightPage is Chromium only (this VM runs in ${this.enginePage.engine})`);
    if (!this.page) throw new Error('BrowserVM: not started (call start() first)');
    return this.page;
  }

  /** Stop the VM, close its context, and release the browser and the app server (the last user closes them). */
  async stop(): Promise<void> {
    if (this.starting) await this.starting.catch(() => {});
    if ((this.page || this.enginePage) && !this.gone) await this.call('stop', []).catch(() => {});
    this.lost('stopped');
    await this.teardown();
  }

  private async teardown(): Promise<void> {
    this.page = null;
    this.enginePage = null;
    this.starting = null;
    const steps = this.cleanup.reverse();
    this.cleanup = [];
    for (const step of steps) await step().catch(() => {});
  }
}
