// A VM in a sandbox frame of another origin (<agentos-terminal sandbox-origin>):
// the frame loads the built app's sandbox page (src/ui/sandbox.ts) from the
// sandbox origin, with this page's origin as its only correspondent, and boots
// the VM there; its kernel and every guest process run in the sandbox origin,
// never in this page's. This side has AgentVM's interface over postMessage
// (SandboxClient), taking messages only from that frame and that origin.

import type { Answer, ApprovalRequest } from '../../host/browser/index.js';
import type { Machine } from '../../host/api/machine.js';
import { SandboxClient } from '../../host/api/sandbox-client.js';
import {
  EMBEDDER_PARAM, SANDBOX_PAGE,
  type FrameMessage, type FrameRequest, type Reply, type SandboxApi, type SandboxMethod, type SandboxStart,
} from '../../host/playwright/protocol.js';
import type { Value } from '../../abi/codec.js';
import type { SyscallResult } from '../../abi/syscall-types.js';

export interface FrameVMOptions extends Omit<SandboxStart, 'approvals'> {
  /** Where the sandbox's copy of the built app (dist/web) is served: an origin, or a URL of its directory. */
  sandbox: string;
  /** The element the (invisible) frame goes into. */
  container: Element | ShadowRoot;
  onApproval?: (req: ApprovalRequest) => Answer | Promise<Answer>;
  /** Frame load plus kernel boot; default 60 s. */
  bootTimeoutMs?: number;
}

/** The sandbox page's URL for `sandbox` (an origin or a directory URL). */
export function sandboxPageUrl(sandbox: string): URL {
  const base = new URL(sandbox, location.href);
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new Error(`agentOS: sandbox-origin must be an http(s) URL, got ${sandbox}`);
  const url = new URL(SANDBOX_PAGE, base.pathname.endsWith('/') ? base : `${base.href}/`);
  url.searchParams.set(EMBEDDER_PARAM, location.origin);
  return url;
}

export class FrameVM extends SandboxClient {
  private frame: HTMLIFrameElement | null = null;
  private readonly url: URL;
  private readonly pending = new Map<number, (r: Reply<unknown>) => void>();
  private nextId = 1;
  private starting: Promise<void> | null = null;
  private gone: string | null = null;
  private readonly onMessage = (ev: MessageEvent<FrameMessage>) => this.receive(ev);

  constructor(private readonly options: FrameVMOptions) {
    super('agentOS sandbox');
    this.url = sandboxPageUrl(options.sandbox);
    if (this.url.origin === location.origin) throw new Error(`agentOS: sandbox-origin ${this.url.origin} is this page's own origin: guest code would run in it`);
  }

  /** The sandbox's origin, where the VM runs. */
  get origin(): string {
    return this.url.origin;
  }

  /** Load the frame and boot the VM in it. */
  start(): Promise<void> {
    this.starting ??= this.open().catch((e: unknown) => {
      this.close(`${(e as Error).message}`);
      throw e;
    });
    return this.starting;
  }

  private async open(): Promise<void> {
    const o = this.options;
    const frame = document.createElement('iframe');
    frame.src = this.url.href;
    // SharedArrayBuffer in a cross-origin frame: the frame must be allowed cross-origin isolation.
    frame.allow = 'cross-origin-isolated';
    frame.title = 'agentOS sandbox';
    frame.setAttribute('aria-hidden', 'true');
    frame.style.cssText = 'position:absolute;width:0;height:0;border:0;visibility:hidden';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const loaded = new Promise<void>((ok, fail) => {
      this.pending.set(0, () => ok()); // id 0: the page's `ready`
      timer = setTimeout(() => fail(new Error(`agentOS: the sandbox frame at ${this.url.origin} did not answer (is dist/web served there, with the isolation headers?)`)), o.bootTimeoutMs ?? 60_000);
    }).finally(() => clearTimeout(timer));
    window.addEventListener('message', this.onMessage);
    this.frame = frame;
    o.container.append(frame);
    await loaded;
    await this.call('start', [{ persist: o.persist, env: o.env, cwd: o.cwd, policy: o.policy, network: o.network, approvals: o.onApproval !== undefined }]);
    await this.relisten();
  }

  private receive(ev: MessageEvent<FrameMessage>): void {
    // Only our frame, loaded from the sandbox origin (a frame navigated elsewhere is a stranger).
    if (!this.frame || ev.source !== this.frame.contentWindow || ev.origin !== this.url.origin) return;
    const m = ev.data;
    if (m?.agentos === 'ready') {
      this.pending.get(0)?.({ ok: true, value: undefined });
      this.pending.delete(0);
    } else if (m?.agentos === 'reply') {
      this.pending.get(m.id)?.(m.reply);
      this.pending.delete(m.id);
    } else if (m?.agentos === 'event') {
      this.event(m.event);
    } else if (m?.agentos === 'ask') {
      void this.approve(m.request).then((answer) => this.post({ agentos: 'answer', id: m.id, answer }));
    }
  }

  private async approve(r: ApprovalRequest): Promise<Answer> {
    try {
      return (await this.options.onApproval?.(r)) ?? 'deny';
    } catch {
      return 'deny';
    }
  }

  private post(m: FrameRequest): void {
    this.frame?.contentWindow?.postMessage(m, this.url.origin);
  }

  protected get connected(): boolean {
    return this.frame !== null && !this.gone;
  }

  protected async call<M extends SandboxMethod>(method: M, args: Parameters<SandboxApi[M]>): Promise<Awaited<ReturnType<SandboxApi[M]>>> {
    if (this.gone) throw new Error(`agentOS sandbox: ${this.gone}`);
    if (!this.frame) throw new Error('agentOS sandbox: not started (call start() first)');
    const id = this.nextId++;
    const r = await new Promise<Reply<unknown>>((resolve) => {
      this.pending.set(id, resolve);
      this.post({ agentos: 'call', id, method, args });
    });
    if (!r.ok) throw Object.assign(new Error(r.message), r.code === undefined ? {} : { code: r.code });
    return r.value as Awaited<ReturnType<SandboxApi[M]>>;
  }

  /** Host-level syscalls, run by the sandbox page as init. */
  get vm(): Pick<Machine, 'syscall'> {
    return { syscall: (name, ...args) => this.call('syscall', [name, args as readonly Value[] as Value[]]) as Promise<SyscallResult<typeof name>> };
  }

  /** Stop the VM and remove its frame. */
  async stop(): Promise<void> {
    if (this.starting) await this.starting.catch(() => {});
    if (this.connected) await this.call('stop', []).catch(() => {});
    this.close('stopped');
  }

  private close(why: string): void {
    this.gone ??= why;
    window.removeEventListener('message', this.onMessage);
    this.frame?.remove();
    this.frame = null;
    for (const settle of this.pending.values()) settle({ ok: false, message: `agentOS sandbox: ${why}` });
    this.pending.clear();
    this.endTerminals();
  }
}
