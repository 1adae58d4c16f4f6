// Stack traces and messages a guest can read name no file of the host. V8
// names each frame by its script's URL, and for the runtime's own code that is
// the host's build directory (file:///…/dist/node/process.worker.js on Node,
// dist/pyodide/… and node_modules/@wasmer/sdk/… beside it; the page's URLs in
// a browser). A process worker formats every stack itself, through V8's
// Error.prepareStackTrace (which Node and Chromium consult), and names runtime
// frames `agentos:<file name>`, as Node names its own `node:internal/…`;
// guest code keeps its VM paths. A program may still install its own
// prepareStackTrace: it is handed call sites that answer with the same names.
// `Error` itself cannot be replaced on the global object, because Node asks
// `globalThis.Error` for the hook.

/** V8's structured stack frame (the parts used here; everything else is passed through). */
interface CallSite {
  getFileName(): string | undefined | null;
  getScriptNameOrSourceURL(): string | undefined | null;
  getEvalOrigin(): string | undefined;
  toString(): string;
}

type Hook = (error: unknown, sites: unknown[]) => unknown;

/** The host directory the runtime was loaded from on Node (two levels above this bundle, dist/node/), or null. */
function hostRoot(): string | null {
  const url = import.meta.url;
  if (!url.startsWith('file:')) return null;
  // By hand, not new URL('../../', import.meta.url): bundlers take that for an asset to resolve.
  const root = decodeURIComponent(new URL(url).pathname).replace(/(?:\/[^/]*){3}$/, '/');
  return root.length > 1 ? root : null;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ROOT = hostRoot();
/**
 * Runtime code: a script URL (guest code is named by VM paths), or a path in
 * the host's directory. (Not any node_modules: a guest's packages live in
 * node_modules of the VM.)
 */
const HOST_SCRIPT = new RegExp(`^(?:(?:file|https?|blob):${ROOT ? `|${escape(ROOT)}` : ''})`);
/** The same names inside a frame's text, up to their :line:column. */
const IN_FRAME = new RegExp(`((?:file|https?|blob):[^\\s()]*?${ROOT ? `|${escape(ROOT)}[^\\s()]*?` : ''})((?::\\d+){0,2})(?=[\\s(),]|$)`, 'g');
/** In free text (an error's message), only what is certainly the host's: its directory, as a path or a file: URL. */
const IN_TEXT = ROOT ? new RegExp(`(?:file://)?${escape(ROOT)}[^\\s()'"\`]*`, 'g') : null;

/** What a guest is shown for a runtime file: `agentos:` and its last path segment. */
const shown = (name: string): string => `agentos:${name.replace(/[?#].*$/, '').replace(/^.*\//, '')}`;

/** `text` with every host file name in it replaced. */
export function hideHostPaths(text: string): string {
  return IN_TEXT ? text.replace(IN_TEXT, shown) : text;
}

const frameText = (text: string): string => text.replace(IN_FRAME, (_, name: string, pos: string) => shown(name) + pos);
const guestName = (name: string | undefined | null) => (typeof name === 'string' && HOST_SCRIPT.test(name) ? shown(name) : name);

/** A call site as a guest's prepareStackTrace sees it: runtime frames renamed, their function and receiver withheld. */
class GuestCallSite {
  readonly #site: CallSite & Record<string, (...a: unknown[]) => unknown>;
  readonly #host: boolean;

  constructor(site: CallSite) {
    this.#site = site as CallSite & Record<string, (...a: unknown[]) => unknown>;
    const name = site.getScriptNameOrSourceURL() ?? site.getFileName();
    this.#host = typeof name === 'string' && HOST_SCRIPT.test(name);
  }

  getFileName() { return guestName(this.#site.getFileName()); }
  getScriptNameOrSourceURL() { return guestName(this.#site.getScriptNameOrSourceURL()); }
  getEvalOrigin() { const o = this.#site.getEvalOrigin(); return o === undefined ? o : frameText(o); }
  getThis() { return this.#host ? undefined : this.#site.getThis(); }
  getFunction() { return this.#host ? undefined : this.#site.getFunction(); }
  toString() { return frameText(this.#site.toString()); }
  static {
    for (const m of ['getTypeName', 'getFunctionName', 'getMethodName', 'getLineNumber', 'getColumnNumber', 'isToplevel', 'isEval',
      'isNative', 'isConstructor', 'isAsync', 'isPromiseAll', 'getPromiseIndex', 'getScriptHash', 'getEnclosingLineNumber',
      'getEnclosingColumnNumber', 'getPosition']) {
      Object.defineProperty(GuestCallSite.prototype, m, {
        value(this: GuestCallSite) { return this.#site[m]?.(); },
        writable: true, configurable: true,
      });
    }
  }
}

/** The first line, as Node writes it: its own errors (ERR_*, with their own toString) as `Name [CODE]: message`. */
function header(error: unknown): string {
  try {
    const e = error as { name?: unknown; code?: unknown; message?: unknown; toString?: unknown };
    if (typeof e.code === 'string' && e.code.startsWith('ERR_') && e.toString !== Error.prototype.toString) return `${e.name} [${e.code}]: ${e.message}`;
    return Error.prototype.toString.call(error);
  } catch {
    return 'Error';
  }
}

/** As V8 and Node lay out a stack: the header, then one `    at` line per frame. */
function defaultFormat(error: unknown, sites: GuestCallSite[]): string {
  const head = header(error);
  return sites.length ? `${head}\n    at ${sites.join('\n    at ')}` : head;
}

/** Install the formatter (V8 engines only); called by a process worker's entry before any program runs. */
export function hideHostFrames(): void {
  if (typeof (Error as { captureStackTrace?: unknown }).captureStackTrace !== 'function') return;
  let guestHook: unknown;
  const format: Hook = (error, sites) => {
    const safe = sites.map((s) => new GuestCallSite(s as CallSite));
    return typeof guestHook === 'function' ? (guestHook as Hook).call(Error, error, safe) : defaultFormat(error, safe);
  };
  try {
    Object.defineProperty(Error, 'prepareStackTrace', {
      get: () => format,
      // Code that saves the hook and puts it back hands this formatter back: that means "none of mine".
      set: (h: unknown) => { guestHook = h === format ? undefined : h; },
      configurable: false,
    });
  } catch {
    // JavaScriptCore has captureStackTrace but its own, unconfigurable prepareStackTrace, which it never calls.
    return;
  }
  Object.defineProperty(globalThis, 'Error', { writable: false, configurable: false });
}
