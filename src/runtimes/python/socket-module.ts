// `_agentos_socket`: CPython's `_socket` on the kernel's sockets (decision
// 0071). Pyodide's `_socket` is Emscripten's (WebSockets, refused here, see
// engine.ts) and was built without AF_UNIX, socketpair or SO_REUSEADDR, so
// this module takes its place in sys.modules and the standard `socket` module
// is run again on it: socket.socket, create_connection, makefile, socketserver,
// http.server and http.client then work as on Linux, on the VM's loopback.
// Each call is one bridge operation (socket-ops.ts), which is one kernel
// syscall; bytes cross the bridge raw. Names resolve without DNS: the
// loopback names, the host name and numeric addresses (there is no other
// network for a socket to reach). What is pure computation (inet_pton,
// htons...) stays the C module's.

export const SOCKET_MODULE = String.raw`
import os, sys, errno as _errno, json as _json, ipaddress as _ipaddress
import _socket as _c
from _socket import *
from _agentos_driver import _bridge_fd

AF_UNIX = 1
SO_REUSEADDR = 2
SO_REUSEPORT = 15
SOMAXCONN = 4096
error = OSError
timeout = TimeoutError
herror, gaierror = _c.herror, _c.gaierror
has_ipv6 = True
_NONBLOCK, _CLOEXEC = _c.SOCK_NONBLOCK, _c.SOCK_CLOEXEC
_default_timeout = None
_LOOPBACK = {AF_INET: '127.0.0.1', AF_INET6: '::1'}
_ANY = {AF_INET: '0.0.0.0', AF_INET6: '::'}
_SERVICES = {'http': 80, 'https': 443, 'ftp': 21, 'ssh': 22, 'smtp': 25, 'domain': 53, 'http-alt': 8080}

def _raise(err, msg):
    if err == 'ETIMEDOUT' and msg.endswith('(timed out)'):
        raise TimeoutError('timed out')  # a socket timeout (socket-ops.ts), as CPython words it
    code = getattr(_errno, err, _errno.EIO)
    # The kernel's words are Linux's strerror: "ECONNREFUSED: Connection refused (detail)".
    text = msg.partition(': ')[2].partition(' (')[0] if msg else ''
    raise OSError(code, text or os.strerror(code))

def _call(op, *args, data=None):
    '''One bridge request; bytes in (data) and out: (value, bytes or None). EINTR is raised (InterruptedError).'''
    fd = _bridge_fd()
    req = _json.dumps([op, *args]).encode()
    os.write(fd, req if data is None else b''.join((req, b'\0', data)))
    reply = os.read(fd, 65536)
    while b'\n' not in reply:
        reply += os.read(fd, 65536)
    head, _, rest = reply.partition(b'\n')
    r = _json.loads(head)
    if r[0] is not None:
        if r[0] == '!': raise SystemError('agentOS runtime: ' + r[1])
        _raise(r[0], r[1])
    if len(r) < 3: return r[1], None
    while len(rest) < r[2]:
        rest += os.read(fd, r[2] - len(rest))
    return r[1], rest

def _check_signals():
    '''Let CPython run a caught signal's handler now (KeyboardInterrupt for Ctrl-C): an empty poll answers EINTR then.'''
    _poller.poll(0)

def _blocking(op, *args, data=None):
    '''A call that may wait: retried after a signal's handler has run (PEP 475); the handler may raise.'''
    while True:
        try:
            return _call(op, *args, data=data)
        except InterruptedError:
            pass
        _check_signals()

# A plain recv reads at most this much at once (a read past the kernel's channel size would wait for more).
_CHUNK = 65536

def _poller_for(fd):
    import select
    p = select.poll()
    p.register(fd, select.POLLIN)
    return p

def _ms(t):
    return -1 if t is None else int(t * 1000) if t > 0 else 0

def _port(port, what):
    if not isinstance(port, int):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(port).__name__)
    if not 0 <= port <= 65535:
        raise OverflowError('%s(): port must be 0-65535.' % what)
    return port

def _host(family, host, what):
    if isinstance(host, (bytes, bytearray)): host = bytes(host).decode('idna')
    if not isinstance(host, str):
        raise TypeError('str, bytes or bytearray expected, not %s' % type(host).__name__)
    if host == '': return _ANY[family]
    if host == '<broadcast>': return '255.255.255.255'
    return _resolve(host, family)[0]

def _sockaddr(family, address, what):
    '''A Python address as the kernel takes it: { family, address, port }.'''
    if family == AF_UNIX:
        if isinstance(address, str): address = os.fsencode(address)
        elif isinstance(address, (bytes, bytearray, memoryview)): address = bytes(address)
        else: raise TypeError('%s(): AF_UNIX address must be str or bytes, not %s' % (what, type(address).__name__))
        return {'family': AF_UNIX, 'address': address.decode('utf-8', 'surrogateescape'), 'port': 0}
    if not isinstance(address, tuple):
        raise TypeError('%s(): AF_INET%s address must be tuple, not %s' % (what, '6' if family == AF_INET6 else '', type(address).__name__))
    if family == AF_INET and len(address) != 2 or family == AF_INET6 and not 2 <= len(address) <= 4:
        raise TypeError('%s(): AF_INET%s address must be a pair (host, port)' % (what, '6' if family == AF_INET6 else ''))
    return {'family': family, 'address': _host(family, address[0], what), 'port': _port(address[1], what)}

def _pyaddr(a):
    '''The kernel's address as Python shows it.'''
    if a is None: return None
    f = a['family']
    if f == AF_INET: return (a['address'], a['port'])
    if f == AF_INET6: return (a['address'], a['port'], 0, 0)
    path = a['address']
    return os.fsencode(path) if path.startswith('\0') else path

def _fd_of(s):
    if s._fd < 0: raise OSError(_errno.EBADF, 'Bad file descriptor')
    return s._fd

class socket:
    '''_socket.socket: an fd of the kernel's socket, with CPython's timeout rules.'''
    __slots__ = ('_fd', '_family', '_type', '_proto', '_timeout')

    def __init__(self, family=-1, type=-1, proto=-1, fileno=None):
        self._fd = -1
        if fileno is None:
            family = AF_INET if family == -1 else family
            type = SOCK_STREAM if type == -1 else type
            proto = 0 if proto == -1 else proto
            if family not in (AF_INET, AF_INET6, AF_UNIX):
                raise OSError(_errno.EAFNOSUPPORT, 'Address family not supported by protocol')
            self._fd = _call('sock_socket', int(family), int(type))[0]
            nonblock = bool(type & _NONBLOCK)
        else:
            if isinstance(fileno, float) or not isinstance(fileno, int):
                raise TypeError('socket fileno must be an integer')
            if fileno < 0: raise ValueError('negative file descriptor')
            f, t, p, nonblock = _call('sock_probe', fileno)[0]
            family = f if family == -1 else family
            type = t if type == -1 else type
            proto = p if proto == -1 else proto
            self._fd = fileno
        self._family, self._type, self._proto = family, type & ~(_NONBLOCK | _CLOEXEC), proto
        self._timeout = 0.0 if nonblock else None
        if not nonblock and _default_timeout is not None:
            self.settimeout(_default_timeout)

    family = property(lambda self: self._family)
    type = property(lambda self: self._type)
    proto = property(lambda self: self._proto)
    timeout = property(lambda self: self._timeout)

    def fileno(self): return self._fd
    def detach(self):
        fd, self._fd = self._fd, -1
        return fd
    def close(self):
        fd, self._fd = self._fd, -1
        if fd >= 0:
            try:
                os.close(fd)
            except OSError as e:
                if e.errno != _errno.ECONNRESET: raise
    def __del__(self):
        if getattr(self, '_fd', -1) >= 0:
            import warnings
            warnings.warn('unclosed %r' % self, ResourceWarning, source=self)
            self.close()

    def gettimeout(self): return self._timeout
    def getblocking(self): return self._timeout != 0.0
    def settimeout(self, value):
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                value = float(value)  # TypeError as CPython's for what is not a number
            value = float(value)
            if value < 0: raise ValueError('Timeout value out of range')
            if value != value: raise ValueError('Invalid value NaN (not a number)')
        fd = _fd_of(self)
        if (value is None) != (self._timeout is None):
            _call('sock_nonblock', fd, value is not None)
        self._timeout = value
    def setblocking(self, flag):
        self.settimeout(None if flag else 0.0)

    def bind(self, address):
        _call('sock_bind', _fd_of(self), _sockaddr(self._family, address, 'bind'))
    def listen(self, backlog=min(SOMAXCONN, 128)):
        _call('sock_listen', _fd_of(self), max(0, int(backlog)))
    def _accept(self):
        fd, peer = _blocking('sock_accept', _fd_of(self), _ms(self._timeout))[0]
        return fd, _pyaddr(peer)
    def connect(self, address):
        _blocking('sock_connect', _fd_of(self), _sockaddr(self._family, address, 'connect'), _ms(self._timeout))
    def connect_ex(self, address):
        try:
            self.connect(address)
        except TimeoutError:
            return _errno.EWOULDBLOCK
        except OSError as e:
            if e.errno is None: raise
            return e.errno
        return 0
    def send(self, data, flags=0):
        return _blocking('sock_send', _fd_of(self), int(flags), None, _ms(self._timeout), data=bytes(memoryview(data)))[0]
    def sendto(self, data, flags_or_addr, addr=None):
        flags = 0 if addr is None else int(flags_or_addr)
        addr = flags_or_addr if addr is None else addr
        to = _sockaddr(self._family, addr, 'sendto')
        return _blocking('sock_send', _fd_of(self), flags, to, _ms(self._timeout), data=bytes(memoryview(data)))[0]
    def sendall(self, data, flags=0):
        view = memoryview(data).cast('B')
        while len(view):
            n = self.send(view[:1 << 20], flags)
            view = view[n:]
    def _recv(self, n, flags):
        if n < 0: raise ValueError('negative buffersize in recv')
        return _blocking('sock_recv', _fd_of(self), int(n), int(flags), _ms(self._timeout))
    def _read_ready(self, fd):
        '''For a plain recv: wait for data as the timeout says (socket.timeout when it runs out).'''
        if self._timeout and not _poller_for(fd).poll(self._timeout * 1000):
            raise TimeoutError('timed out')
    def recv(self, bufsize, flags=0):
        if flags or bufsize < 0: return self._recv(bufsize, flags)[1]
        # recv(2) without flags is read(2): the kernel's read, with no bridge request (the common case).
        fd = _fd_of(self)
        while True:
            self._read_ready(fd)
            try:
                return os.read(fd, min(bufsize, _CHUNK))
            except BlockingIOError:
                if not self._timeout: raise
    def recvfrom(self, bufsize, flags=0):
        frm, data = self._recv(bufsize, flags)
        return data, _pyaddr(frm)
    def recv_into(self, buffer, nbytes=0, flags=0):
        view = memoryview(buffer).cast('B')
        if nbytes < 0: raise ValueError('negative buffersize in recv_into')
        if nbytes > len(view): raise ValueError('buffer too small for requested bytes')
        if not flags:
            fd = _fd_of(self)
            while True:
                self._read_ready(fd)
                try:
                    return os.readinto(fd, view[:min(nbytes or len(view), _CHUNK)])
                except BlockingIOError:
                    if not self._timeout: raise
        data = self._recv(nbytes or len(view), flags)[1]
        view[:len(data)] = data
        return len(data)
    def recvfrom_into(self, buffer, nbytes=0, flags=0):
        view = memoryview(buffer).cast('B')
        frm, data = self._recv(nbytes or len(view), flags)
        view[:len(data)] = data
        return len(data), _pyaddr(frm)
    def shutdown(self, how):
        _call('sock_shutdown', _fd_of(self), int(how))
    def getsockname(self): return _pyaddr(_call('sock_name', _fd_of(self))[0])
    def getpeername(self): return _pyaddr(_call('sock_peer', _fd_of(self))[0])
    def setsockopt(self, level, optname, value, optlen=None):
        if value is None or optlen is not None:
            raise OSError(_errno.ENOPROTOOPT, 'Protocol not available')
        if isinstance(value, (bytes, bytearray)):
            value = int.from_bytes(bytes(value)[:4].ljust(4, b'\0'), 'little', signed=True)
        _call('sock_setopt', _fd_of(self), int(level), int(optname), int(value))
    def getsockopt(self, level, optname, buflen=None):
        v = _call('sock_getopt', _fd_of(self), int(level), int(optname))[0]
        return v if buflen is None else int(v).to_bytes(4, 'little', signed=True)[:buflen]
    def __repr__(self):
        return '<socket object, fd=%d, family=%d, type=%d, proto=%d>' % (self._fd, self._family, self._type, self._proto)

SocketType = socket

def socketpair(family=AF_UNIX, type=SOCK_STREAM, proto=0):
    a, b = _call('sock_socketpair', int(family), int(type))[0]
    return socket(family, type, proto, a), socket(family, type, proto, b)

def dup(fd):
    return _call('sock_dup', fd)[0]

def close(fd):
    os.close(fd)

def getdefaulttimeout(): return _default_timeout
def setdefaulttimeout(value):
    global _default_timeout
    if value is not None:
        value = float(value)
        if value < 0: raise ValueError('Timeout value out of range')
    _default_timeout = value

def gethostname():
    return _call('sock_hostname')[0]

def _local_names():
    return ('localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback', gethostname().lower())

def _resolve(host, family=AF_UNSPEC):
    '''Addresses for a name, without DNS: numeric ones, the loopback names and the host name.'''
    try:
        fam = AF_INET6 if _ipaddress.ip_address(host).version == 6 else AF_INET
    except ValueError:
        fam = None
    if fam is not None:
        if family in (AF_UNSPEC, fam): return [host]
        if family == AF_INET6: return ['::ffff:' + host]
        raise gaierror(EAI_ADDRFAMILY if 'EAI_ADDRFAMILY' in globals() else EAI_NONAME, 'Address family for hostname not supported')
    if host.lower().rstrip('.') in _local_names():
        return [_LOOPBACK[family]] if family in _LOOPBACK else ['::1', '127.0.0.1']
    raise gaierror(EAI_NONAME, 'Name or service not known')

def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
    if isinstance(host, (bytes, bytearray)): host = bytes(host).decode('idna')
    if isinstance(port, (bytes, bytearray)): port = bytes(port).decode()
    if isinstance(port, str):
        if port.isdigit(): port = int(port)
        elif port in _SERVICES and not flags & AI_NUMERICSERV: port = _SERVICES[port]
        else: raise gaierror(EAI_SERVICE, 'Servname not supported for ai_socktype')
    elif port is None: port = 0
    elif not isinstance(port, int): raise OSError('Int or String expected')
    if family not in (AF_UNSPEC, AF_INET, AF_INET6): raise gaierror(EAI_FAMILY, 'ai_family not supported')
    if host is None or host == '':
        if host is None and port == 0: raise gaierror(EAI_NONAME, 'Name or service not known')
        addrs = [_ANY[f] if flags & AI_PASSIVE else _LOOPBACK[f] for f in ((AF_INET, AF_INET6) if family == AF_UNSPEC else (family,))]
    elif flags & AI_NUMERICHOST:
        addrs = _resolve(host, family)
        if host.lower() in _local_names(): raise gaierror(EAI_NONAME, 'Name or service not known')
    else:
        addrs = _resolve(host, family)
    types = [type] if type else [SOCK_STREAM, SOCK_DGRAM]
    out = []
    for a in addrs:
        fam = AF_INET6 if ':' in a else AF_INET
        for t in types:
            p = proto or (IPPROTO_TCP if t == SOCK_STREAM else IPPROTO_UDP if t == SOCK_DGRAM else 0)
            out.append((fam, t, p, '', (a, port) if fam == AF_INET else (a, port, 0, 0)))
    return out

def gethostbyname(host):
    return _resolve(host, AF_INET)[0]

def gethostbyname_ex(host):
    return (host, [], [gethostbyname(host)])

def gethostbyaddr(ip):
    if ip in ('127.0.0.1', '::1', 'localhost'):
        return ('localhost', [], [_resolve(ip)[0] if ip != 'localhost' else '127.0.0.1'])
    raise herror(1, 'Unknown host')

def getnameinfo(sockaddr, flags):
    host, port = sockaddr[0], sockaddr[1]
    if not flags & NI_NUMERICHOST and host in ('127.0.0.1', '::1'): host = 'localhost'
    return host, str(port)

def _select(rlist, wlist, xlist, timeout=None):
    '''select.select on select.poll (the kernel's poll, poll.ts), which CPython retries after a signal's handler.'''
    import select
    if timeout is not None:
        timeout = float(timeout)
        if timeout < 0: raise ValueError('timeout must be non-negative')
    lists = [list(rlist), list(wlist), list(xlist)]
    p = select.poll()
    fds = {}
    for objs, ev in zip(lists, (select.POLLIN, select.POLLOUT, select.POLLPRI)):
        for o in objs:
            fd = o if isinstance(o, int) else o.fileno()
            if not isinstance(fd, int): raise TypeError('fileno() returned a non-integer')
            if fd < 0: raise ValueError('file descriptor cannot be a negative integer (%d)' % fd)
            fds[fd] = fds.get(fd, 0) | ev
    for fd, ev in fds.items():
        p.register(fd, ev)
    got = dict(p.poll(None if timeout is None else timeout * 1000))
    if any(rev & select.POLLNVAL for rev in got.values()):
        raise OSError(_errno.EBADF, 'Bad file descriptor')
    ready = select.POLLIN | select.POLLHUP | select.POLLERR, select.POLLOUT | select.POLLERR, select.POLLPRI
    def fileno(o): return o if isinstance(o, int) else o.fileno()
    return tuple([o for o in objs if got.get(fileno(o), 0) & mask] for objs, mask in zip(lists, ready))

def install():
    '''Make this module _socket and run the socket module again on it; select.select on the kernel's poll.'''
    import importlib, select, socket as std
    sys.modules['_socket'] = sys.modules[__name__]
    importlib.reload(std)
    select.select = _select
    global _poller
    _poller = select.poll()

_poller = None
`;
