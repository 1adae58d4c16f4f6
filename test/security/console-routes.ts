// The ways a guest program can try to print past its own fds 1 and 2 — the
// worker's console and the host behind it — in each runtime. Every program
// prints a forged JSON-RPC reply (id 2: the exec call of the MCP tests) that
// names its route, so a leaked line says where it came from.
//
// `to`: where the line belongs — the process's own stdout or stderr, or
// nowhere (a route that cannot reach the process's fds, or runs after the
// process ended). Never the host's stdout or stderr.

export interface Route {
  name: string;
  to: 'stdout' | 'stderr' | 'none';
  /** The program: a file with a #! line. */
  source: string;
  /** The process's exit status (0 unless said). */
  status?: number;
}

/** The forged line of route `name`; its `text` is the marker the tests look for. */
export const forged = (name: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: `LEAK-${name}` }] } });

const js = (body: string) => `#!/usr/libexec/agentos/js\nconst F = ${JSON.stringify('@')};\n${body}\n`;
const node = (body: string) => `#!/usr/bin/node\nconst F = ${JSON.stringify('@')};\n${body}\n`;
const py = (body: string) => `#!/usr/bin/env python3\nF = ${JSON.stringify('@')}\n${body}\n`;
/** Python reaches the worker's JavaScript realm through Pyodide's proxies (docs/security.md). */
// Python reaches the worker's realm only by the route that stays open by design (decision 0026):
// Pyodide's core module made again through importlib's internals.
const PY_JS = "import _imp, importlib.machinery as im\nJS = _imp.create_builtin(im.ModuleSpec('_pyodide_core', im.BuiltinImporter)).to_js({}).constructor.constructor";
/** A moment for the worker's host to report what the program left behind. */
const SETTLE = 'await new Promise((ok) => setTimeout(ok, 30));';

const ROUTES: [string, Route['to'], string, number?][] = [
  ['js-log', 'stdout', js('console.log(F);')],
  ['js-info', 'stdout', js('console.info(F);')],
  ['js-debug', 'stdout', js('console.debug(F);')],
  ['js-dir', 'stdout', js('console.dir(F);')],
  ['js-table', 'stdout', js('console.table([F]);')],
  ['js-group', 'stdout', js('console.group(F); console.groupEnd();')],
  ['js-count', 'stdout', js('console.count(F);')],
  ['js-error', 'stderr', js('console.error(F);')],
  ['js-warn', 'stderr', js('console.warn(F);')],
  ['js-trace', 'stderr', js('console.trace(F);')],
  ['js-assert', 'stderr', js('console.assert(false, F);')],
  // Node's console keeps its stream (the worker's stdout, piped to the host's) on _stdout.
  ['js-console-stdout', 'none', js("try { console._stdout.write(F + '\\n'); } catch {}\ntry { console._stderr.write(F + '\\n'); } catch {}")],
  ['js-console-proto', 'stdout', js('Object.getPrototypeOf(console).log?.call(console, F);')],
  ['js-console-restored', 'stdout', js('const c = globalThis.console; globalThis.console = { log() {} }; globalThis.console = c; console.log(F);')],
  ['js-emit-warning', 'none', js('try { process.emitWarning(F); } catch {}')],
  // Node prints DEP0005 itself, on the worker's stderr; the marker cannot be in it (see the test).
  ['js-deprecation', 'none', js('try { new Buffer(1); } catch {}')],
  ['js-rejection', 'stderr', js(`Promise.reject(new Error(F));\n${SETTLE}`), 1],
  ['js-microtask', 'stderr', js(`queueMicrotask(() => { throw new Error(F); });\n${SETTLE}`), 1],
  ['js-timer', 'stderr', js(`setTimeout(() => { throw new Error(F); }, 0);\n${SETTLE}`), 1],
  ['node-log', 'stdout', node('console.log(F);')],
  ['node-error', 'stderr', node('console.error(F);')],
  ['node-stdout', 'stdout', node("process.stdout.write(F + '\\n');")],
  ['node-console-module', 'stdout', node("require('console').log(F);")],
  ['node-new-console', 'stderr', node("new (require('console').Console)(process.stderr).log(F);")],
  ['node-global-console', 'stdout', node('globalThis.console.log(F); globalThis.console = undefined;')],
  ['node-emit-warning', 'stderr', node('process.emitWarning(F);')],
  ['node-deprecation', 'none', node('new Buffer(1);')],
  // Kept alive a moment: a browser reports the rejection in a later task.
  ['node-rejection', 'stderr', node('Promise.reject(new Error(F));\nsetTimeout(() => {}, 30);'), 1],
  ['node-microtask', 'stderr', node('queueMicrotask(() => { throw new Error(F); });'), 1],
  ['py-print', 'stdout', py('print(F)')],
  ['py-console-log', 'stdout', py(`${PY_JS}\nJS('console.log(' + repr(F) + ')')()`)],
  ['py-console-error', 'stderr', py(`${PY_JS}\nJS('console.error(' + repr(F) + ')')()`)],
  // Last: the program has exited when these run. In its pooled worker they
  // would print into the next program run there (a program can tamper with
  // later ones of its VM: docs/security.md), so the scripts run nothing but a
  // silent sleep after them.
  ['js-after-exit', 'none', js("setTimeout(() => { console.log(F); console.error(F); throw new Error(F); }, 20);\nsetTimeout(() => Promise.reject(new Error(F)), 25);")],
  ['py-js-timer', 'none', py(`${PY_JS}\nJS('setTimeout(() => { console.log(' + repr(F) + '); throw new Error(' + repr(F) + '); }, 20)')()`)],
];

export const routes: Route[] = ROUTES.map(([name, to, source, status]) => ({
  name, to, status, source: source.replace(JSON.stringify('@'), JSON.stringify(forged(name))),
}));

const names = (list: Route[]) => list.map((r) => r.name).join(' ');
/** Time for what the programs left behind to run, where it cannot print into anything. */
const SETTLE_ALL = 'sleep 0.3 >/dev/null 2>&1\n';
const writeRoutes = (list: Route[]) =>
  `mkdir -p /tmp/routes /tmp/routes-out && cd /tmp/routes\n${list.map((r) => `cat > /tmp/routes/${r.name} <<'AGENTOS_EOF'\n${r.source}AGENTOS_EOF\n`).join('')}chmod +x *\n`;

/** A shell script that runs every route's program with its output left on the script's own stdout and stderr. */
export function routesInline(list: Route[] = routes): string {
  return `${writeRoutes(list)}for f in ${names(list)}; do ./$f; done\n${SETTLE_ALL}`;
}

/**
 * A shell script that writes every route's program to /tmp/routes/, runs each
 * with its stdout and stderr in files, waits for what they left behind, then
 * prints one line of JSON — {name: {status, stdout, stderr}} with the outputs
 * in base64, so that no marker appears in it in clear.
 */
export function routesScript(list: Route[] = routes): string {
  return `${writeRoutes(list)}for f in ${names(list)}; do ./$f > /tmp/routes-out/$f.1 2> /tmp/routes-out/$f.2; echo $? > /tmp/routes-out/$f.status; done
${SETTLE_ALL}node -e '
const fs = require("fs"), out = {};
for (const f of fs.readdirSync("/tmp/routes")) {
  const read = (x) => fs.readFileSync("/tmp/routes-out/" + f + x);
  out[f] = { status: Number(read(".status")), stdout: read(".1").toString("base64"), stderr: read(".2").toString("base64") };
}
console.log(JSON.stringify(out));'
`;
}

export interface RouteResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** The report routesScript prints, decoded. */
export function parseReport(line: string): Record<string, RouteResult> {
  const raw = JSON.parse(line) as Record<string, RouteResult>;
  const dec = (s: string) => Buffer.from(s, 'base64').toString('utf8');
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, { status: v.status, stdout: dec(v.stdout), stderr: dec(v.stderr) }]));
}
