// <agentos-terminal>: an agentOS VM with its terminal, as a custom element
// (shadow DOM, xterm's CSS inside). Attributes (README "Embedding"):
//   persist="name"  persistent VM in IndexedDB (absent: ephemeral)
//   cwd, env        the shell's directory and environment (env: `A=1 B="x y"` or JSON)
//   readonly        no keyboard input (the page can still drive it through `vm`)
//   autostart       boot at once (otherwise on a click, or when `vm` is first used)
//   theme           light | dark (default: the system's)
//   rows, cols      fixed size (otherwise it fits its box)
//   policy          the VM's policy as JSON (README "The policy")
//   network         none | all | hosts or origins (commas or spaces): policy.network
//   sandbox-origin  run the VM in a frame of that origin (or URL of dist/web
//                   there), so guest code never runs in this page's origin
//   coi-sw          URL of a copy of coi-sw.js: on a page served without
//                   COOP/COEP, register it and reload once (coi/ensure.ts)
// The policy and sandbox attributes are read once, when the element creates its
// VM (it is connected to the page); a malformed one stops it from booting
// (`error`), and a later change is refused (`error`), never applied to the
// running VM.
// Property `vm`: exec/readFile/writeFile/snapshot/restore, exec(cmd, {inTerminal}).
// Property `onApproval`: answers the policy's `ask` rules (absent: denied).
// Property `secrets`: host-held secrets (policy.secrets) kept out of the DOM;
// set before the element is connected, merged into the policy.
// Property `isolation`: null until known, then how the VM gets SharedArrayBuffer
// or, `unavailable`, why it cannot (also shown in the element, in words).
// Property `persisted`: whether the browser agreed to keep a persistent VM's
// storage (null until it answers, or for an ephemeral VM).
// Events: `ready`, `exit` (detail.code), `output` (detail.bytes, detail.text),
// `error` (detail.error), `isolation` (detail: the property), `persisted`
// (detail.persisted), `port-open` (detail.port, detail.url: a server in the VM
// listens; url is its preview, port-events.ts), `port-close` (detail.port).

import xtermCss from '@xterm/xterm/css/xterm.css?inline';
import { preferredTheme, type ThemeName } from '../term/themes.js';
import { ensureIsolation, isolationHelp, type Isolation } from '../coi/ensure.js';
import { FrameVM } from '../term/frame-vm.js';
import { localVM, VmView, type AgentosApi, type VmViewOptions } from '../term/vm-view.js';
import { XtermView } from '../term/xterm-view.js';
import type { AgentVM, Answer, ApprovalRequest } from '../../host/browser/index.js';
import { parseEnv, parsePolicy, parseSize } from './attributes.js';
import { watchPorts } from './port-events.js';
import { checkPolicy } from '../../host/check-policy.js';
import type { Policy } from '../../api/policy.js';
import componentCss from './component.css?inline';

/**
 * For host pages that cannot send COOP/COEP: registers a copy of `coi-sw.js`
 * served at `swUrl` (its directory must contain the page) and reloads once.
 */
export { ensureIsolation, type Isolation } from '../coi/ensure.js';

/** Why a page without COOP/COEP that names no service worker cannot isolate. */
const NO_HEADERS = 'the page was served without those headers (and the element has no coi-sw attribute)';

export class AgentosTerminalElement extends HTMLElement {
  static readonly observedAttributes = ['theme', 'readonly', 'policy', 'network', 'sandbox-origin'];

  /** Answers the policy's `ask` rules: 'once' | 'always' | 'never' | 'deny'. Without it every ask is denied. */
  onApproval: ((req: ApprovalRequest) => Answer | Promise<Answer>) | null = null;

  /**
   * Host-held secrets (README, "Host-held secrets"), set before the element
   * is connected: added to the policy's `secrets`, so a key need not be
   * written into the `policy` attribute where every script on the page reads it.
   */
  secrets: Policy['secrets'] | null = null;

  private view: XtermView | null = null;
  private vmView: VmView<AgentVM | FrameVM> | null = null;
  private api: AgentosApi<AgentVM | FrameVM> | null = null;
  private notice!: HTMLElement;
  private isolationState: Isolation | null = null;
  private persistedState: boolean | null = null;
  private readonly decoder = new TextDecoder();
  /** Why the element cannot boot (a malformed policy attribute). */
  private refused: Error | null = null;

  /** The VM's exec interface; using it starts the VM. */
  get vm(): AgentosApi<AgentVM | FrameVM> {
    this.build();
    if (this.refused) throw this.refused;
    if (!this.api) {
      const api = (this.api = this.vmView!.api());
      void api.ready.then(() => {
        if (this.api !== api) return;
        this.notice.setAttribute('hidden', '');
        if (this.hasAttribute('sandbox-origin')) this.settle({ state: 'isolated', via: 'sandbox-origin' });
        void (api.vm as Partial<AgentVM>).persisted?.then((p) => {
          if (this.api !== api) return;
          this.persistedState = p;
          this.dispatchEvent(new CustomEvent('persisted', { detail: { persisted: p }, bubbles: true }));
        });
        this.dispatchEvent(new CustomEvent('ready', { detail: { vm: api }, bubbles: true }));
        // A VM in this page (not a sandbox frame's): its ports become previews here.
        if (!(api.vm instanceof FrameVM)) watchPorts(api.vm, this, () => this.api === api);
      }, (e: unknown) => this.fail(e));
    }
    return this.api;
  }

  /**
   * How this element's VM is cross-origin isolated (`headers`, `service-worker`,
   * `sandbox-origin`), `reloading` (the service worker reloads the page), or
   * `unavailable` with the reason; null until known (event `isolation`).
   */
  get isolation(): Isolation | null {
    return this.isolationState;
  }

  /** Whether the browser keeps a persistent VM's storage (navigator.storage.persist); null until it answers or when ephemeral. */
  get persisted(): boolean | null {
    return this.persistedState;
  }

  /** The xterm.js Terminal (for tests and advanced embedding). */
  get xterm(): XtermView['xterm'] | null {
    return this.view?.xterm ?? null;
  }

  connectedCallback(): void {
    this.build();
    if (this.hasAttribute('autostart')) this.start().catch(() => {}); // shown by fail()
  }

  disconnectedCallback(): void {
    // Moved within the page: connectedCallback follows at once and keeps the VM.
    queueMicrotask(() => {
      if (this.isConnected) return;
      const s = this.vmView;
      this.view?.dispose();
      this.vmView = this.view = this.api = this.isolationState = this.persistedState = null;
      this.shadowRoot?.replaceChildren();
      void s?.stop().catch(() => {});
    });
  }

  attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    if (!this.view) return;
    // The VM exists with the policy it was created with; nothing loosens it now.
    if ((name === 'policy' || name === 'network' || name === 'sandbox-origin') && old !== value && this.vmView) {
      this.report(new Error(`agentOS: the ${name} attribute is read when the VM is created; this change is refused (re-create the element to apply it)`));
    }
    if (name === 'theme') this.view.setTheme(this.theme());
    if (name === 'readonly') this.view.readonly = this.hasAttribute('readonly');
  }

  /** Boot the VM and open the terminal; resolves when the shell is ready. */
  async start(): Promise<void> {
    await this.vm.ready; // throws `refused` for a malformed policy
  }

  private theme(): ThemeName {
    const t = this.getAttribute('theme');
    return t === 'light' || t === 'dark' ? t : preferredTheme();
  }

  private build(): void {
    if (this.view) return;
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = `${xtermCss}\n${componentCss}`;
    const screen = document.createElement('div');
    const rows = parseSize(this.getAttribute('rows'));
    const cols = parseSize(this.getAttribute('cols'));
    const fixed = rows !== undefined && cols !== undefined;
    screen.className = fixed ? 'screen fixed' : 'screen';
    this.notice = document.createElement('div');
    this.notice.className = 'notice';
    root.replaceChildren(style, screen, this.notice);
    if (fixed) this.style.height = 'auto';
    if (!this.hasAttribute('theme')) this.setAttribute('theme', this.theme());
    this.view = new XtermView(screen, { theme: this.theme(), rows, cols, readonly: this.hasAttribute('readonly') });
    this.view.onOutput((bytes) => {
      const text = this.decoder.decode(bytes, { stream: true });
      this.dispatchEvent(new CustomEvent('output', { detail: { bytes, text }, bubbles: true }));
    });
    let policy;
    this.refused = null;
    try {
      policy = parsePolicy(this.getAttribute('policy'), this.getAttribute('network'));
      if (this.secrets) policy = checkPolicy({ ...policy, secrets: { ...policy?.secrets, ...this.secrets } });
    } catch (e) {
      // Not a VM with a looser policy: no VM.
      return this.refuse(new Error(`agentOS: invalid policy: ${(e as Error).message}`));
    }
    const persist = this.getAttribute('persist');
    const opts: VmViewOptions = {
      policy,
      onApproval: (req) => this.onApproval?.(req) ?? 'deny',
      persist: persist || undefined,
      cwd: this.getAttribute('cwd') || undefined,
      env: parseEnv(this.getAttribute('env')),
      onProgress: (p) => {
        if (p.stage === 'image' && !p.cached) this.say(`Downloading agentOS… ${Math.round((100 * p.loaded) / p.total)}%`);
        else if (p.stage === 'kernel') this.say('Starting agentOS…');
      },
      onExit: (code) => this.dispatchEvent(new CustomEvent('exit', { detail: { code }, bubbles: true })),
    };
    const sandbox = this.getAttribute('sandbox-origin');
    let vm: AgentVM | FrameVM;
    try {
      // The frame goes into the shadow root: it lives and dies with the element.
      vm = sandbox === null ? localVM(opts) : new FrameVM({ ...opts, sandbox, container: root });
    } catch (e) {
      // Not this page's origin instead: no VM.
      return this.refuse(e as Error);
    }
    if (!this.hasAttribute('autostart')) {
      const go = document.createElement('button');
      go.textContent = 'Start agentOS';
      go.addEventListener('click', () => this.start().catch(() => {}));
      this.notice.replaceChildren(go);
    } else {
      this.say('Starting agentOS…');
    }
    // After the notice above: an isolation that cannot be had replaces it with the reason.
    // The VM boots only once the page is isolated; in a sandbox frame, the frame must be (it tells).
    const isolating = sandbox === null ? this.isolate() : Promise.resolve<Isolation>({ state: 'isolated', via: 'sandbox-origin' });
    this.vmView = new VmView(this.view, vm, {
      ...opts,
      beforeStart: async () => {
        const iso = await isolating;
        if (iso.state === 'reloading') throw new Error('agentOS: the page is reloading to become cross-origin isolated');
        if (iso.state === 'unavailable') throw new Error(isolationHelp(iso.reason));
      },
    });
  }

  /** This page's isolation: the headers, the coi-sw service worker (which may reload the page), or why not. */
  private async isolate(): Promise<Isolation> {
    const sw = this.getAttribute('coi-sw');
    let iso: Isolation;
    if (sw !== null) iso = await ensureIsolation(new URL(sw, document.baseURI)).catch((e: unknown) => ({ state: 'unavailable', reason: `the service worker failed (${(e as Error).message})` }) as const);
    else iso = crossOriginIsolated ? { state: 'isolated', via: 'headers' } : { state: 'unavailable', reason: NO_HEADERS };
    // Said at once, started or not: the embedder can offer another way, the user reads why.
    if (iso.state === 'unavailable') this.say(isolationHelp(iso.reason));
    else if (iso.state === 'reloading') this.say('Reloading the page to make it cross-origin isolated…');
    this.settle(iso);
    return iso;
  }

  private settle(iso: Isolation): void {
    if (this.isolationState?.state === iso.state) return;
    this.isolationState = iso;
    this.dispatchEvent(new CustomEvent('isolation', { detail: iso, bubbles: true }));
  }

  /** This element will not boot (an attribute it cannot honour); `error` says why. */
  private refuse(e: Error): void {
    this.refused = e;
    this.say(e.message);
    queueMicrotask(() => this.report(e));
  }

  private say(text: string): void {
    this.notice.textContent = text;
    this.notice.removeAttribute('hidden');
  }

  private fail(e: unknown): void {
    const msg = (e as Error)?.message ?? String(e);
    const unisolated = /cross-origin isolated/.test(msg);
    // A sandbox frame that could not isolate itself: the embedder reads why, as on this page.
    if (unisolated && this.hasAttribute('sandbox-origin')) this.settle({ state: 'unavailable', reason: msg });
    this.say(unisolated ? msg : `agentOS could not start: ${msg}`);
    this.report(e);
  }

  private report(error: unknown): void {
    this.dispatchEvent(new CustomEvent('error', { detail: { error }, bubbles: true }));
  }
}

if (!customElements.get('agentos-terminal')) customElements.define('agentos-terminal', AgentosTerminalElement);

declare global {
  interface HTMLElementTagNameMap {
    'agentos-terminal': AgentosTerminalElement;
  }
}
