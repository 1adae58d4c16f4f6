// `_agentos_http`: urllib.request's http and https handlers on the kernel's
// http syscall (through the bridge device's `http` operation, bridge.ts), so
// Python's HTTP is checked by the VM's network policy like curl's. urllib
// follows redirects itself: every hop is a new request, checked again. A
// refusal is urllib's URLError around an OSError with the kernel's errno and
// message. http.client and libraries on raw sockets (requests, urllib3) are on
// the kernel's sockets (socket-module.ts), which reach only the VM's loopback.

export const HTTP = String.raw`
import io, os, base64, socket, email.parser, http.client
import re, errno as _errno
from _agentos_driver import _call

_HOP = ('connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'proxy-connection')

class KernelResponse(io.RawIOBase):
    '''What urllib's opener expects of http.client.HTTPResponse, the body read from the kernel's pipe fd.'''
    def __init__(self, head):
        self._fd = head['fd']
        self.status = self.code = head['status']
        self.reason = head['reason']
        self.version = {'1.0': 10, '2.0': 20}.get(head['version'], 11)
        text = ''.join('%s: %s\r\n' % (k, v) for k, v in head['headers']) + '\r\n'
        self.headers = self.msg = email.parser.Parser(_class=http.client.HTTPMessage).parsestr(text)
        self.url = head['url']
        self.will_close = True
        n = self.headers.get('Content-Length')
        self.length = int(n) if n and n.isdigit() else None
        self.chunked = False
    def readable(self): return True
    def fileno(self): return self._fd
    def readinto(self, b):
        if self._fd < 0: return 0
        data = os.read(self._fd, len(b))
        if not data: self._release()
        b[:len(data)] = data
        return len(data)
    def _release(self):
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
    def close(self):
        self._release()
        super().close()
    def getheader(self, name, default=None):
        v = self.headers.get_all(name)
        return default if v is None else ', '.join(v)
    def getheaders(self): return list(self.headers.items())
    def info(self): return self.headers
    def geturl(self): return self.url
    def getcode(self): return self.status

def _body(data):
    if data is None: return None
    if isinstance(data, str): return data.encode('iso-8859-1')
    if isinstance(data, (bytes, bytearray, memoryview)): return bytes(data)
    if hasattr(data, 'read'):
        d = data.read()
        return d.encode('iso-8859-1') if isinstance(d, str) else bytes(d)
    return b''.join(bytes(c) for c in data)

def _ms(timeout):
    return int(timeout * 1000) if isinstance(timeout, (int, float)) and timeout > 0 else 0

def request(method, url, headers=(), body=None, timeout=None):
    '''One request through the kernel: a KernelResponse, or OSError with the kernel's errno and message.'''
    # As http.client's putheader: a str value is latin-1 (else UnicodeEncodeError), bytes go as they are;
    # the kernel takes them one char per byte.
    hdrs = [[str(k), (v if isinstance(v, (bytes, bytearray)) else str(v).encode('latin-1')).decode('latin-1')]
            for k, v in headers if str(k).lower() not in _HOP]
    data = _body(body)
    err, val = _call('http', method, url, hdrs, None if data is None else base64.b64encode(data).decode(), _ms(timeout))
    if err is not None:
        # The kernel's own words (the policy's refusal names the rule), not only strerror.
        m = re.match(r'^\w+: [^(]*\((.*)\)$', val or '')
        code = getattr(_errno, err, _errno.EIO)
        raise OSError(code, m.group(1) if m else os.strerror(code))
    return KernelResponse(val)

class _Connection:
    '''The part of http.client.HTTPConnection that urllib's AbstractHTTPHandler.do_open uses.'''
    scheme = 'http'
    sock = None
    def __init__(self, host, timeout=socket._GLOBAL_DEFAULT_TIMEOUT, **kw):
        self.host, self.timeout, self._response = host, timeout, None
    def set_debuglevel(self, level): pass
    def set_tunnel(self, host, port=None, headers=None):
        raise OSError(95, 'agentOS: HTTP proxies are not supported (requests go through the kernel)')
    def request(self, method, url, body=None, headers={}, encode_chunked=False):
        # The request is made here: do_open turns an OSError from request() into URLError.
        self._response = request(method, '%s://%s%s' % (self.scheme, self.host, url), headers.items(), body, self.timeout)
    def getresponse(self): return self._response
    def close(self): pass

class _HttpsConnection(_Connection):
    scheme = 'https'

def install(module):
    module.HTTPHandler.http_open = lambda self, req: self.do_open(_Connection, req)
    if not hasattr(module, 'HTTPSHandler'):
        # Defined by urllib only when ssl loads; TLS is the host's here.
        class HTTPSHandler(module.AbstractHTTPHandler):
            https_request = module.AbstractHTTPHandler.do_request_
        module.HTTPSHandler = HTTPSHandler
        module.__all__.append('HTTPSHandler')
        build = module.build_opener
        def build_opener(*handlers):
            if not any(h is HTTPSHandler or isinstance(h, HTTPSHandler) or (isinstance(h, type) and issubclass(h, HTTPSHandler)) for h in handlers):
                handlers += (HTTPSHandler,)
            return build(*handlers)
        module.build_opener = build_opener
    module.HTTPSHandler.https_open = lambda self, req: self.do_open(_HttpsConnection, req)
`;
