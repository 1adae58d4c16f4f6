// The Python side of the runtime, `_agentos_driver`: it patches os/subprocess/time
// onto the kernel (through the bridge device, bridge.ts), takes Pyodide's
// JavaScript modules away from the program (decision 0026) and runs it the way
// CPython's main does (-c, -m, a file, stdin, the REPL), returning the exit
// status. It is imported before the memory snapshot is taken, so a process
// finds it (and what it imports) ready.

export const DRIVER = String.raw`
import os, sys, io, errno as _errno, time, json as _json

_BRIDGE = '/dev/agentos'
_open, _read, _write, _fstat = os.open, os.read, os.write, os.fstat
_pid = None
_fd = -1
_rdev = None

def _bridge_fd():
    '''The device, kept open; opened again if the program closed it (or its number is another file now).'''
    global _fd
    try:
        if _fd >= 0 and _fstat(_fd).st_rdev == _rdev:
            return _fd
    except OSError:
        pass
    _fd = _open(_BRIDGE, os.O_RDWR | os.O_CLOEXEC)
    return _fd

def _call(op, *args):
    '''One request to the runtime's bridge device: returns (errno name or None, value).'''
    fd = _bridge_fd()
    _write(fd, _json.dumps([op, *args]).encode())
    reply = _read(fd, 65536)
    while not reply.endswith(b'\n'):
        reply += _read(fd, 65536)
    err, val = _json.loads(reply)
    if err == '!':
        raise SystemError('agentOS runtime: ' + val)
    return err, val

def run(config):
    '''The process, as JSON from run.ts: bind the interpreter to it, then run the program.'''
    c = _json.loads(config)
    attach(c['pid'], c['env'], c['executable'], c['argv'])
    # As CPython: imports write __pycache__/*.pyc unless -B or PYTHONDONTWRITEBYTECODE says not to.
    sys.dont_write_bytecode = c['noBytecode'] or bool(os.environ.get('PYTHONDONTWRITEBYTECODE'))
    return main(c['mode'], c['target'], c['args'], c['inspect'], c['quiet'], c['unbuffered'], c['ttyIn'], c['ttyOut'])

def attach(pid, env, executable, argv):
    '''Bind this interpreter to its process: environment, sys.executable, site dirs; no JavaScript.'''
    global _pid, _rdev
    _pid = pid
    _rdev = os.stat(_BRIDGE).st_rdev
    os.environ.clear()
    for kv in env:
        k, _, v = kv.partition('=')
        os.environ[k] = v
    sys.executable = executable
    sys.orig_argv = list(argv)
    _use_kernel_loop()
    for sig in (_signal.SIGPIPE, _signal.SIGXFSZ):
        _ok(_call('signal', int(sig), 1))
    _zone_attrs()
    _forget_js()
    ver = 'python%d.%d' % sys.version_info[:2]
    home = os.environ.get('HOME')
    for d in ([os.path.join(home, '.local/lib', ver, 'site-packages')] if home else []) + ['/usr/local/lib/' + ver + '/site-packages']:
        if os.path.isdir(d):
            sys.path.append(d)

def _ok(r):
    err, val = r
    if err is not None:
        raise OSError(getattr(_errno, err, _errno.EIO), os.strerror(getattr(_errno, err, _errno.EIO)))
    return val

def _oserror(r, filename):
    err, val = r
    if err is not None:
        code = getattr(_errno, err, _errno.EIO)
        raise OSError(code, os.strerror(code), filename)
    return val

# ---- os and time on the kernel
def getpid(): return _pid
def getppid(): return _ok(_call('getppid'))
def kill(pid, sig): _ok(_call('kill', int(pid), int(sig)))
def _retry(op, *args):
    '''PEP 475: a call interrupted by a signal is retried once CPython has run the handler (which may raise).'''
    while True:
        try:
            return _ok(_call(op, *args))
        except InterruptedError:
            continue

def waitpid(pid, options):
    r = _retry('waitpid', int(pid), int(options))
    return (r[0], r[1])
def wait(): return waitpid(-1, 0)
def pipe(): return tuple(_ok(_call('pipe', False)))
def sleep(secs):
    if secs < 0: raise ValueError('sleep length must be non-negative')
    end = time.monotonic() + secs
    while True:
        try:
            return _ok(_call('sleep', max(0.0, end - time.monotonic())))
        except InterruptedError:
            continue

def waitstatus_to_exitcode(status):
    if status & 0x7f == 0: return (status >> 8) & 0xff
    if status & 0xff != 0x7f: return -(status & 0x7f)
    raise ValueError('invalid wait status: %r' % status)

def _environ_list(env):
    env = os.environ if env is None else env
    return [os.fsdecode(k) + '=' + os.fsdecode(v) for k, v in env.items()]

def spawn(args, executable=None, env=None, cwd=None, fds=((0, 0), (1, 1), (2, 2)), setsid=False, pgid=-1, sigdefault=0):
    args = [os.fsdecode(a) for a in args]
    executable = os.fsdecode(executable if executable is not None else args[0])
    cwd = os.path.abspath(os.fsdecode(cwd)) if cwd is not None else os.getcwd()
    return _oserror(_call('spawn', executable, args, _environ_list(env), cwd, [list(p) for p in fds], setsid, pgid, sigdefault), executable)

def system(command):
    for f in (sys.stdout, sys.stderr):
        try: f.flush()
        except Exception: pass
    try:
        pid = spawn(['/bin/sh', '-c', os.fsdecode(command)])
    except OSError:
        return 127 << 8
    return waitpid(pid, 0)[1]

import signal as _signal
_py_signal = _signal.signal
def signal(signalnum, handler):
    '''signal.signal, also telling the kernel whether the process catches, ignores or defaults the signal.'''
    old = _py_signal(signalnum, handler)
    how = 0 if handler is _signal.SIG_DFL else 1 if handler is _signal.SIG_IGN else 2
    _ok(_call('signal', int(signalnum), how))
    return old
_signal.signal = signal
# CPython starts with SIGPIPE and SIGXFSZ ignored, so a write to a closed pipe raises BrokenPipeError (attach tells
# the kernel); subprocess's restore_signals gives a child their defaults back.
_RESTORED_SIGNALS = (1 << _signal.SIGPIPE) | (1 << _signal.SIGXFSZ)

for _name in ('getpid', 'getppid', 'kill', 'waitpid', 'wait', 'pipe', 'system', 'waitstatus_to_exitcode'):
    setattr(os, _name, globals()[_name])
os.WNOHANG = 1
for _name, _f in (('WIFEXITED', lambda s: s & 0x7f == 0), ('WEXITSTATUS', lambda s: (s >> 8) & 0xff),
                  ('WIFSIGNALED', lambda s: s & 0x7f not in (0, 0x7f)), ('WTERMSIG', lambda s: s & 0x7f),
                  ('WIFSTOPPED', lambda s: s & 0xff == 0x7f), ('WSTOPSIG', lambda s: (s >> 8) & 0xff)):
    if not hasattr(os, _name): setattr(os, _name, _f)
time.sleep = sleep

def _zone_attrs():
    '''time.timezone, altzone, daylight and tzname from the process's zone (libc's, tz.ts), as CPython derives them on Linux.'''
    year = (365 * 24 + 6) * 3600
    t = int(time.time()) // year * year
    jan, jul = time.localtime(t), time.localtime(t + year // 2)
    if jan.tm_gmtoff > jul.tm_gmtoff:
        jan, jul = jul, jan  # DST in January: the southern hemisphere
    time.timezone, time.altzone, time.daylight = -jan.tm_gmtoff, -jul.tm_gmtoff, int(jan.tm_gmtoff != jul.tm_gmtoff)
    time.tzname = (jan.tm_zone, jul.tm_zone)

def tzset():
    '''time.tzset(): the zone os.environ['TZ'] names from now on.'''
    _ok(_call('tzset', os.environ.get('TZ')))
    _zone_attrs()
time.tzset = tzset

# ---- subprocess on kernel processes
import subprocess, runpy, code, traceback, atexit

def _execute_child(self, args, executable, preexec_fn, close_fds, pass_fds, cwd, env, startupinfo, creationflags,
                   shell, p2cread, p2cwrite, c2pread, c2pwrite, errread, errwrite, restore_signals,
                   gid, gids, uid, umask, start_new_session, process_group):
    if isinstance(args, (str, bytes, os.PathLike)):
        args = [args]
    else:
        args = list(args)
    if shell:
        args = ['/bin/sh', '-c'] + args
        if executable:
            args[0] = executable
    fds = [(0, p2cread if p2cread != -1 else 0), (1, c2pwrite if c2pwrite != -1 else 1),
           (2, errwrite if errwrite != -1 else 2)] + [(fd, fd) for fd in pass_fds]
    try:
        self.pid = spawn(args, executable, env, cwd, fds, bool(start_new_session),
                         process_group if process_group is not None else -1,
                         _RESTORED_SIGNALS if restore_signals else 0)
        self._child_created = True
    finally:
        if p2cread != -1 and p2cwrite != -1 and p2cread != getattr(self, '_devnull', None): os.close(p2cread)
        if c2pwrite != -1 and c2pread != -1 and c2pwrite != getattr(self, '_devnull', None): os.close(c2pwrite)
        if errwrite != -1 and errread != -1 and errwrite != getattr(self, '_devnull', None): os.close(errwrite)
        if hasattr(self, '_devnull'): os.close(self._devnull)
        self._closed_child_pipe_fds = True

def _communicate(self, input, endtime, orig_timeout):
    if self.stdin and not self._communication_started:
        try: self.stdin.flush()
        except (BrokenPipeError, ValueError): pass
        if not input:
            try: self.stdin.close()
            except BrokenPipeError: pass
    if not self._communication_started:
        self._fileobj2output = {f: [] for f in (self.stdout, self.stderr) if f}
        self._input = input.encode(self.stdin.encoding, self.stdin.errors) if (input is not None and self.text_mode) else input
        self._input_offset = 0
    readers = {f.fileno(): f for f in self._fileobj2output if not f.closed}
    writer = self.stdin if (self.stdin and not self.stdin.closed and self._input) else None
    while readers or writer:
        timeout = -1 if endtime is None else max(0, int(self._remaining_time(endtime) * 1000))
        req = [[fd, 1] for fd in readers] + ([[writer.fileno(), 4]] if writer else [])
        ready = _retry('poll', req, timeout)
        if not ready and endtime is not None and self._remaining_time(endtime) <= 0:
            self._check_timeout(endtime, orig_timeout, [], [], skip_check_and_raise=False)
            raise subprocess.TimeoutExpired(self.args, orig_timeout)
        for fd, rev in ready:
            if writer is not None and fd == writer.fileno():
                chunk = self._input[self._input_offset:self._input_offset + 65536]
                try:
                    self._input_offset += os.write(fd, chunk)
                except BrokenPipeError:
                    self._input_offset = len(self._input)
                if self._input_offset >= len(self._input):
                    writer.close()
                    writer = None
            elif fd in readers:
                data = os.read(fd, 65536)
                if data:
                    self._fileobj2output[readers[fd]].append(data)
                else:
                    readers.pop(fd).close()
    self.wait(timeout=self._remaining_time(endtime))
    out = b''.join(self._fileobj2output[self.stdout]) if self.stdout else None
    err = b''.join(self._fileobj2output[self.stderr]) if self.stderr else None
    if self.text_mode:
        if out is not None: out = self._translate_newlines(out, self.stdout.encoding, self.stdout.errors)
        if err is not None: err = self._translate_newlines(err, self.stderr.encoding, self.stderr.errors)
    return (out, err)

subprocess._can_fork_exec = True
subprocess._USE_POSIX_SPAWN = False
subprocess.Popen._execute_child = _execute_child
subprocess.Popen._communicate = _communicate
for _name in ('waitpid', 'waitstatus_to_exitcode', 'WIFSTOPPED', 'WSTOPSIG', 'WNOHANG'):
    setattr(subprocess._del_safe, _name, getattr(os, _name))

# ---- sockets: the kernel's (_agentos_socket takes _socket's place; socket and what imported it see it)
import _agentos_socket
_agentos_socket.install()

# ---- asyncio: CPython's selector loop on kernel poll (Pyodide's WebLoop needs JS stack switching)
import asyncio, selectors

class _KernelSelector(selectors._BaseSelectorImpl):
    def select(self, timeout=None):
        ms = -1 if timeout is None else max(0, int(timeout * 1000))
        req = [[k.fd, (1 if k.events & selectors.EVENT_READ else 0) | (4 if k.events & selectors.EVENT_WRITE else 0)]
               for k in self._fd_to_key.values()]
        ready = []
        for fd, rev in _retry('poll', req, ms):
            key = self._fd_to_key.get(fd)
            if key is None: continue
            ev = (selectors.EVENT_READ if rev & 0x19 else 0) | (selectors.EVENT_WRITE if rev & 0xc else 0)
            if ev & key.events: ready.append((key, ev & key.events))
        return ready

class _PipeEnd:
    '''The loop's self-pipe, where CPython uses a socketpair (a pipe is one kernel object, not two).'''
    def __init__(self, fd): self.fd = fd
    def fileno(self): return self.fd
    def recv(self, n): return os.read(self.fd, n)
    def send(self, data): return os.write(self.fd, data)
    def close(self):
        if self.fd >= 0: os.close(self.fd)
        self.fd = -1

class _KernelLoop(asyncio.SelectorEventLoop):
    def __init__(self):
        super().__init__(_KernelSelector())
    def _make_self_pipe(self):
        r, w = _ok(_call('pipe', True))
        self._ssock, self._csock = _PipeEnd(r), _PipeEnd(w)
        self._internal_fds += 1
        self._add_reader(self._ssock.fileno(), self._read_from_self)

def _use_kernel_loop():
    import pyodide.webloop
    asyncio.run = pyodide.webloop._orig_run
    time.sleep = sleep
    asyncio.unix_events._UnixDefaultEventLoopPolicy._loop_factory = _KernelLoop
    asyncio.events._set_event_loop_policy(None)
    asyncio.events._set_running_loop(None)

# ---- threads as far as one thread goes, and modules patched when first imported
import _agentos_threads
_agentos_threads.patch_threading()

class _Then:
    '''A module's loader, and a patch applied once the module has run.'''
    def __init__(self, loader, then): self._loader, self._then = loader, then
    def create_module(self, spec): return self._loader.create_module(spec)
    def exec_module(self, module):
        self._loader.exec_module(module)
        self._then(module)
    def __getattr__(self, name): return getattr(self._loader, name)

class _PostImport:
    '''urllib.request on the kernel's http syscall; ThreadPoolExecutor without worker threads.'''
    HOOKS = {'urllib.request': ('_agentos_http', 'install'), 'concurrent.futures.thread': ('_agentos_threads', 'patch_executor')}
    def find_spec(self, name, path=None, target=None):
        hook = self.HOOKS.get(name)
        if hook is None:
            return None
        import importlib, importlib.machinery
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _Then(spec.loader, lambda m: getattr(importlib.import_module(hook[0]), hook[1])(m))
        return spec

for _name, (_mod, _fn) in _PostImport.HOOKS.items():
    if _name in sys.modules:
        getattr(__import__(_mod), _fn)(sys.modules[_name])
sys.meta_path.insert(0, _PostImport())

# ---- no JavaScript: Pyodide's modules hand Python JavaScript values, which lead to the worker's globals
_JS_MODULES = ('js', 'pyodide_js', '_pyodide_core', '_pyodide', 'pyodide')

def _js_module(name):
    return name.partition('.')[0] in _JS_MODULES

def _forget_js():
    '''Take every JavaScript value Pyodide left where Python finds it: its modules, import finders, their references.'''
    from _pyodide import _importhook
    from pyodide.ffi import JsProxy
    _importhook.jsfinder.jsproxies.clear()
    finders = (_importhook.jsfinder, _importhook.WindowsToLinuxPathFinder)
    sys.meta_path[:] = [f for f in sys.meta_path if f not in finders]
    for name in [n for n in sys.modules if _js_module(n)]:
        m = sys.modules.pop(name)
        loader = getattr(getattr(m, '__spec__', None), 'loader', None)
        if isinstance(loader, _importhook.JsLoader):
            loader.jsproxy = None
        if not isinstance(m, JsProxy):
            d = vars(m)
            for k in [k for k, v in d.items() if isinstance(v, JsProxy)]:
                del d[k]
    # Not importable again (from the standard library's zip, or as built-ins): import fails as CPython's does.
    for name in _JS_MODULES:
        sys.modules[name] = None

# ---- running the program, as CPython's main does
def _flush():
    for f in (sys.stdout, sys.stderr):
        try: f.flush()
        except Exception: pass

def _print_exception(e):
    tb = e.__traceback__
    # Our own frames are not the program's.
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    sys.excepthook(type(e), e, tb)

def _exit_status(e):
    code = e.code
    if code is None: return 0
    if isinstance(code, int): return code & 0xff
    try:
        print(code, file=sys.stderr)
    except Exception: pass
    return 1

# CPython on Linux prints Linux's numbers; Emscripten's differ.
_LINUX_ERRNO = {'ENOENT': 2, 'EACCES': 13, 'EISDIR': 21, 'ENOTDIR': 20, 'ELOOP': 40}

def _run_code(code, name, main_dict):
    exec(compile(code, name, 'exec'), main_dict)

def _main_dict(file=None):
    import __main__
    d = __main__.__dict__
    d['__file__'] = file
    if file is None: d.pop('__file__')
    d['__cached__'] = None
    return d

class _Console:
    def __init__(self):
        class C(code.InteractiveConsole):
            def raw_input(self, prompt=''):
                sys.stderr.write(prompt)
                sys.stderr.flush()
                line = sys.stdin.readline()
                if not line:
                    raise EOFError
                return line.rstrip('\n')
        self.console = C(_main_dict())
    def run(self, banner):
        sys.ps1, sys.ps2 = '>>> ', '... '
        try:
            self.console.interact(banner=banner, exitmsg='')
        except SystemExit as e:
            return _exit_status(e)
        return 0

def _banner():
    return 'Python %s on %s (agentOS, Pyodide)\nType "help", "copyright", "credits" or "license" for more information.' % (sys.version, sys.platform)

def main(mode, target, args, inspect, quiet, unbuffered, tty_in, tty_out):
    if unbuffered:
        sys.stdout = io.TextIOWrapper(io.FileIO(1, 'w', closefd=False), encoding='utf-8', write_through=True)
        sys.stderr = io.TextIOWrapper(io.FileIO(2, 'w', closefd=False), encoding='utf-8', errors='backslashreplace', write_through=True)
    elif tty_out:
        sys.stdout.reconfigure(line_buffering=True)
    sys.argv = list(args)
    status = 0
    try:
        try:
            if mode == 'c':
                sys.path.insert(0, '')
                _run_code(target, '<string>', _main_dict())
            elif mode == 'm':
                sys.path.insert(0, os.getcwd())
                runpy._run_module_as_main(target, alter_argv=True)
            elif mode == 'file':
                sys.path.insert(0, os.path.dirname(os.path.realpath(target)))
                try:
                    with open(target, 'rb') as f:
                        source = f.read()
                except OSError as e:
                    name = _errno.errorcode.get(e.errno, '')
                    sys.stderr.write("%s: can't open file %r: [Errno %d] %s\n" % (
                        sys.orig_argv[0], os.path.abspath(target), _LINUX_ERRNO.get(name, e.errno), e.strerror))
                    return 2
                _run_code(source, target, _main_dict(target))
            elif mode == 'stdin':
                sys.path.insert(0, '')
                _run_code(sys.stdin.buffer.read(), '<stdin>', _main_dict('<stdin>'))
            elif mode == 'repl':
                sys.path.insert(0, '')
                return _Console().run('' if quiet else _banner())
            if inspect:
                return _Console().run('')
        except SystemExit as e:
            status = _exit_status(e)
        except KeyboardInterrupt as e:
            _print_exception(e)
            status = -2
        except BaseException as e:
            _print_exception(e)
            status = 1
            if inspect:
                return _Console().run('')
    finally:
        try:
            atexit._run_exitfuncs()
        except Exception: pass
        _flush()
    return status
`;
