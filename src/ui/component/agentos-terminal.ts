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
// The policy and sandbox attributes are read once, when the element creates its
// VM (it is connected to the page); a malformed one stops it from booting
// (`error`), and a later change is refused (`error`), never applied to the
// running VM.
// Property `vm`: exec/readFile/writeFile/snapshot/restore, exec(cmd, {inTerminal}).
// Property `onApproval`: answers the policy's `ask` rules (absent: denied).
// Events: `ready`, `exit` (detail.code), `output` (detail.bytes, detail.text),
// `error` (detail.error).

import xtermCss from '@xterm/xterm/css/xterm.css?inline';
import { preferredTheme, type ThemeName } from '../term/themes.js';
import { FrameVM } from '../term/frame-vm.js';
import { localVM, VmView, type AgentosApi, type VmViewOptions } from '../term/vm-view.js';
import { XtermView } from '../term/xterm-view.js';
import type { AgentVM, Answer, ApprovalRequest } from '../../host/browser/index.js';
import { parseEnv, parsePolicy, parseSize } from './attributes.js';
import componentCss from './component.css?inline';

/**
 * For host pages that cannot send COOP/COEP: registers a copy of `coi-sw.js`
 * served at `swUrl` (its directory must contain the page) and reloads once.
 */
export { ensureIsolation } from '../coi/ensure.js';

const ISOLATION_HELP =
  'agentOS needs a cross-origin isolated page for SharedArrayBuffer. Serve this page with the headers ' +
  '<code>Cross-Origin-Opener-Policy: same-origin</code> and <code>Cross-Origin-Embedder-Policy: require-corp</code>.';

export class AgentosTerminalElement extends HTMLElement {
  static readonly observedAttributes = ['theme', 'readonly', 'policy', 'network', 'sandbox-origin'];

  /** Answers the policy's `ask` rules: 'once' | 'always' | 'never' | 'deny'. Without it every ask is denied. */
  onApproval: ((req: ApprovalRequest) => Answer | Promise<Answer>) | null = null;

  private view: XtermView | null = null;
  private vmView: VmView<AgentVM | FrameVM> | null = null;
  private api: AgentosApi<AgentVM | FrameVM> | null = null;
  private notice!: HTMLElement;
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
        this.dispatchEvent(new CustomEvent('ready', { detail: { vm: api }, bubbles: true }));
      }, (e: unknown) => this.fail(e));
    }
    return this.api;
  }

  /** The xterm.js Terminal (for tests and advanced embedding). */
  get xterm(): XtermView['xterm'] | null {
    return this.view?.xterm ?? null;
  }

  connectedCallback(): void {
    this.build();
    // Without isolation the notice explains the headers; nothing can boot.
    if (this.hasAttribute('autostart') && crossOriginIsolated) this.start().catch(() => {}); // shown by fail()
  }

  disconnectedCallback(): void {
    // Moved within the page: connectedCallback follows at once and keeps the VM.
    queueMicrotask(() => {
      if (this.isConnected) return;
      const s = this.vmView;
      this.view?.dispose();
      this.vmView = this.view = this.api = null;
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
    this.vmView = new VmView(this.view, vm, opts);
    if (!crossOriginIsolated) {
      this.notice.innerHTML = ISOLATION_HELP;
      return;
    }
    if (!this.hasAttribute('autostart')) {
      const go = document.createElement('button');
      go.textContent = 'Start agentOS';
      go.addEventListener('click', () => this.start().catch(() => {}));
      this.notice.replaceChildren(go);
    } else {
      this.say('Starting agentOS…');
    }
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
    this.notice.removeAttribute('hidden');
    this.notice.innerHTML = crossOriginIsolated ? '' : ISOLATION_HELP;
    if (crossOriginIsolated) this.notice.textContent = `agentOS could not start: ${(e as Error)?.message ?? e}`;
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
