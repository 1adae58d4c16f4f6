// xterm.js bound to a VM terminal: output to the screen, keystrokes to the
// TTY, the size to the TTY's window size (SIGWINCH). Shared by the playground
// and <agentos-terminal>. Addons: fit, web links, search, Unicode 11 widths.

import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { Terminal as Xterm } from '@xterm/xterm';
import { THEMES, type ThemeName } from './themes.js';
import type { Terminal } from '../../host/browser/index.js';

export interface XtermViewOptions {
  theme: ThemeName;
  /** Fixed size; absent = fit to the container. */
  cols?: number;
  rows?: number;
  /** No keyboard input reaches the VM. */
  readonly?: boolean;
  /** Called with the next focus target when the user leaves with F6 (Tab belongs to the shell). */
  onLeave?: () => void;
}

export class XtermView {
  readonly xterm: Xterm;
  private readonly fitAddon = new FitAddon();
  private readonly searchAddon = new SearchAddon();
  private session: Terminal | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly outputListeners = new Set<(bytes: Uint8Array) => void>();
  private readonly resizeObserver: ResizeObserver | null = null;
  private readonly opts: XtermViewOptions;

  constructor(container: HTMLElement, opts: XtermViewOptions) {
    this.opts = { ...opts };
    this.xterm = new Xterm({
      allowProposedApi: true, // the Unicode 11 width tables
      cols: opts.cols ?? 80,
      rows: opts.rows ?? 24,
      cursorBlink: !opts.readonly,
      disableStdin: opts.readonly ?? false,
      fontFamily: 'ui-monospace, "Cascadia Mono", "DejaVu Sans Mono", Menlo, Consolas, monospace',
      fontSize: 14,
      scrollback: 5000,
      theme: THEMES[opts.theme],
    });
    this.xterm.loadAddon(this.fitAddon);
    this.xterm.loadAddon(this.searchAddon);
    this.xterm.loadAddon(new WebLinksAddon((_e, uri) => window.open(uri, '_blank', 'noopener')));
    this.xterm.loadAddon(new Unicode11Addon());
    this.xterm.unicode.activeVersion = '11';
    this.xterm.attachCustomKeyEventHandler((e) => this.onKey(e));
    this.xterm.open(container);
    this.xterm.onData((d) => this.input(d));
    this.xterm.onBinary((d) => this.input(Uint8Array.from(d, (c) => c.charCodeAt(0))));
    this.xterm.onResize(({ cols, rows }) => this.session?.resize(cols, rows));
    if (opts.cols === undefined || opts.rows === undefined) {
      this.resizeObserver = new ResizeObserver(() => this.fit());
      this.resizeObserver.observe(container);
      this.fit();
    }
  }

  /** Connect to a VM terminal (replacing any previous one). */
  attach(t: Terminal): void {
    this.unsubscribe?.();
    this.session = t;
    this.unsubscribe = t.onData((bytes) => {
      this.xterm.write(bytes);
      this.outputListeners.forEach((l) => l(bytes));
    });
    t.resize(this.xterm.cols, this.xterm.rows);
  }

  /** Disconnect (the session ended): the screen stays, input goes nowhere. */
  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.session = null;
  }

  get attached(): boolean {
    return this.session !== null;
  }

  /** Output bytes as they arrive from the VM. */
  onOutput(cb: (bytes: Uint8Array) => void): () => void {
    this.outputListeners.add(cb);
    return () => this.outputListeners.delete(cb);
  }

  /** Send input as if typed (also when the view is read-only: this is the host typing). */
  type(data: string | Uint8Array): void {
    this.session?.write(data);
  }

  private input(data: string | Uint8Array): void {
    if (!this.opts.readonly) this.session?.write(data);
  }

  fit(): void {
    if (this.opts.cols !== undefined && this.opts.rows !== undefined) return;
    const d = this.fitAddon.proposeDimensions();
    if (!d || !Number.isFinite(d.cols) || !Number.isFinite(d.rows)) return; // hidden: keep the size
    const cols = this.opts.cols ?? Math.max(2, d.cols);
    const rows = this.opts.rows ?? Math.max(1, d.rows);
    if (cols !== this.xterm.cols || rows !== this.xterm.rows) this.xterm.resize(cols, rows);
  }

  setTheme(theme: ThemeName): void {
    this.xterm.options.theme = THEMES[theme];
  }

  set readonly(on: boolean) {
    this.opts.readonly = on;
    this.xterm.options.disableStdin = on;
    this.xterm.options.cursorBlink = !on;
  }

  get screenReader(): boolean {
    return this.xterm.options.screenReaderMode ?? false;
  }

  set screenReader(on: boolean) {
    this.xterm.options.screenReaderMode = on;
  }

  async copy(): Promise<void> {
    const text = this.xterm.getSelection();
    if (text) await navigator.clipboard.writeText(text);
  }

  async paste(): Promise<void> {
    const text = await navigator.clipboard.readText();
    if (text && !this.opts.readonly) this.xterm.paste(text);
  }

  find(text: string, backwards = false): boolean {
    return backwards ? this.searchAddon.findPrevious(text) : this.searchAddon.findNext(text);
  }

  focus(): void {
    this.xterm.focus();
  }

  /** Ctrl+Shift+C / Ctrl+Shift+V copy and paste (Ctrl+C stays ^C); F6 leaves the terminal. */
  private onKey(e: KeyboardEvent): boolean {
    if (e.type !== 'keydown') return true;
    if (e.ctrlKey && e.shiftKey && (e.key === 'C' || e.key === 'c')) {
      void this.copy();
      return false;
    }
    if (e.ctrlKey && e.shiftKey && (e.key === 'V' || e.key === 'v')) {
      void this.paste();
      e.preventDefault();
      return false;
    }
    if (e.key === 'F6' && this.opts.onLeave) {
      e.preventDefault();
      this.xterm.blur();
      this.opts.onLeave();
      return false;
    }
    return true;
  }

  dispose(): void {
    this.unsubscribe?.();
    this.resizeObserver?.disconnect();
    this.xterm.dispose();
  }
}
