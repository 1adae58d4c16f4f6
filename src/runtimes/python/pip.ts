// `pip` (and micropip.install) inside agentOS: pure-Python wheels only (a
// wheel is a zip, unpacked into site-packages with its RECORD, as pip does),
// from a file, a URL or a package index (PEP 691 JSON or PEP 503 HTML simple
// pages; --index-url, else PIP_INDEX_URL, else pip.conf's index-url, else PyPI,
// plus any extra-index-url), with their dependencies. Downloads go
// through urllib, so the kernel's http syscall and the VM's network policy
// decide; a refusal is reported in the policy's words. uninstall removes what
// RECORD lists; show, list and freeze print what pip prints.

export const PIP = String.raw`
import os, sys, zipfile, csv, io, shutil

__version__ = '24.0+agentos'
PURE_ONLY = 'agentOS installs pure-Python wheels only (no compiler for extensions or source builds)'

def _ver():
    return 'python%d.%d' % sys.version_info[:2]

def _site(user):
    system = '/usr/local/lib/%s/site-packages' % _ver()
    if not user:
        try:
            os.makedirs(system, exist_ok=True)
            if os.access(system, os.W_OK):
                return system
        except OSError:
            pass
    return os.path.join(os.path.expanduser('~'), '.local/lib', _ver(), 'site-packages')

def _bin(site):
    return '/usr/local/bin' if site.startswith('/usr/local/') else os.path.join(os.path.expanduser('~'), '.local/bin')

def _dist_info(names):
    for n in names:
        top = n.split('/')[0]
        if top.endswith('.dist-info'):
            return top
    raise ValueError('not a wheel: no .dist-info directory')

def install_wheel(path, user=False, out=sys.stdout):
    name = os.path.basename(path)
    parts = name[:-4].split('-')
    if not name.endswith('.whl') or len(parts) < 5:
        raise ValueError('%s is not a valid wheel filename' % name)
    if not (parts[-1] == 'any' and parts[-3].startswith(('py', 'cp'))) or parts[-2] not in ('none', 'abi3'):
        raise ValueError('%s is not a pure-Python wheel (only those can run in agentOS)' % name)
    site = _site(user)
    os.makedirs(site, exist_ok=True)
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        info = _dist_info(names)
        data = info[:-len('.dist-info')] + '.data'
        scripts = []
        for n in names:
            if n.endswith('/'):
                continue
            target = n
            if n.startswith(data + '/'):
                kind, _, rest = n[len(data) + 1:].partition('/')
                if kind in ('purelib', 'platlib'):
                    target = rest
                elif kind == 'scripts':
                    scripts.append((rest, z.read(n)))
                    continue
                else:
                    continue
            dest = os.path.join(site, target)
            if os.path.relpath(dest, site).startswith('..'):
                raise ValueError('unsafe path in wheel: %s' % n)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, 'wb') as f:
                f.write(z.read(n))
        entry = os.path.join(site, info, 'entry_points.txt')
        if os.path.exists(entry):
            import configparser
            cp = configparser.ConfigParser()
            cp.read(entry)
            if cp.has_section('console_scripts'):
                for cmd, spec in cp.items('console_scripts'):
                    mod, _, fn = spec.partition(':')
                    scripts.append((cmd, ('#!/usr/bin/env python3\nimport sys\nfrom %s import %s\nsys.exit(%s())\n'
                                          % (mod.strip(), fn.strip(), fn.strip().split('.')[0])).encode()))
        bindir = _bin(site)
        written = [os.path.join(site, n) for n in names if not n.endswith('/') and not n.startswith(data + '/')]
        written += [os.path.join(site, n[len(data) + 1:].partition('/')[2]) for n in names
                    if n.startswith(data + '/') and n[len(data) + 1:].partition('/')[0] in ('purelib', 'platlib') and not n.endswith('/')]
        for cmd, body in scripts:
            os.makedirs(bindir, exist_ok=True)
            p = os.path.join(bindir, cmd)
            with open(p, 'wb') as f:
                f.write(body)
            os.chmod(p, 0o755)
            written.append(p)
        with open(os.path.join(site, info, 'INSTALLER'), 'w') as f:
            f.write('pip\n')
        written.append(os.path.join(site, info, 'INSTALLER'))
        # RECORD lists every file installed (scripts too), relative to site-packages: uninstall removes them.
        record = os.path.join(site, info, 'RECORD')
        with open(record, 'w', newline='') as f:
            w = csv.writer(f)
            for p in sorted(set(written) - {record}):
                w.writerow([os.path.relpath(p, site), '', ''])
            w.writerow([os.path.relpath(record, site), '', ''])
    dist = info[:-len('.dist-info')]
    print('Successfully installed %s' % dist.replace('_', '-'), file=out)
    return os.path.join(site, info)

def _dists(paths=None):
    """Installed distributions (first on the path wins, as import does), by canonical name."""
    import importlib.metadata as md
    seen = {}
    for d in (md.distributions(path=paths) if paths else md.distributions()):
        name = d.metadata['Name']
        if name and _canon(name) not in seen:
            seen[_canon(name)] = d
    return seen

def _canon(name):
    import re
    return re.sub(r'[-_.]+', '-', name).lower()

def _installed(paths=None):
    return sorted(((d.metadata['Name'], d.version) for d in _dists(paths).values()), key=lambda kv: kv[0].lower())

def _record_paths(d):
    """The files RECORD lists, as absolute paths (scripts are '../../../bin/x' from site-packages)."""
    base = str(d.locate_file(''))
    return [os.path.normpath(os.path.join(base, str(f))) for f in (d.files or [])]

def _uninstall(name, verbose=False, indent=''):
    d = _dists().get(_canon(name))
    if d is None:
        print('WARNING: Skipping %s as it is not installed.' % name, file=sys.stderr)
        return 0
    shown = '%s-%s' % (d.metadata['Name'], d.version)
    print('%sFound existing installation: %s %s' % (indent, d.metadata['Name'], d.version))
    if d.files is None:
        print('ERROR: Cannot uninstall %s %s, RECORD file not found.' % (d.metadata['Name'], d.version), file=sys.stderr)
        return 1
    print('%sUninstalling %s:' % (indent, shown))
    info = str(d._path)
    removed, dirs = [], set()
    for p in _record_paths(d):
        if os.path.isfile(p) or os.path.islink(p):
            os.remove(p)
            removed.append(p)
            dirs.add(os.path.dirname(p))
            if p.endswith('.py'):
                cache = os.path.join(os.path.dirname(p), '__pycache__')
                stem = os.path.basename(p)[:-3] + '.'
                if os.path.isdir(cache):
                    for c in os.listdir(cache):
                        if c.startswith(stem) and c.endswith('.pyc'):
                            os.remove(os.path.join(cache, c))
                    dirs.add(cache)
    shutil.rmtree(info, ignore_errors=True)
    # Directories the package leaves empty go too, deepest first (never site-packages itself).
    site = os.path.dirname(info)
    for dpath in sorted(dirs, key=len, reverse=True):
        while dpath != site and dpath.startswith(site + os.sep) and os.path.isdir(dpath) and not os.listdir(dpath):
            os.rmdir(dpath)
            dpath = os.path.dirname(dpath)
    if verbose:
        for p in removed:
            print('%s  Removing file or directory %s' % (indent, p))
    print('%s  Successfully uninstalled %s' % (indent, shown))
    return 0

def _depends(d):
    """The names d requires in this environment (markers evaluated, no extras), as pip show lists them."""
    out = []
    for r in d.requires or []:
        req, _, marker = r.partition(';')
        try:
            if marker.strip() and not _marker(marker.strip()):
                continue
            name = _parse_req(req)[0]
        except (ValueError, KeyError, IndexError):
            continue
        if name not in out:
            out.append(name)
    return out

def _show(names):
    dists = _dists()
    found = [dists[_canon(n)] for n in names if _canon(n) in dists]
    if len(found) < len(names):
        print('WARNING: Package(s) not found: %s' % ', '.join(n for n in names if _canon(n) not in dists), file=sys.stderr)
    import re
    requirers = {}
    for d in dists.values():
        for n in _depends(d):
            requirers.setdefault(_canon(n), []).append(d.metadata['Name'])
    for i, d in enumerate(found):
        m = d.metadata
        if i:
            print('---')
        reqs = _depends(d)
        print('Name: %s' % m['Name'])
        print('Version: %s' % d.version)
        print('Summary: %s' % (m['Summary'] or ''))
        print('Home-page: %s' % (m['Home-page'] or ''))
        print('Author: %s' % (m['Author'] or ''))
        print('Author-email: %s' % (m['Author-email'] or ''))
        print('License: %s' % (m['License'] or ''))
        print('Location: %s' % os.path.dirname(str(d._path)))
        print('Requires: %s' % ', '.join(sorted(reqs, key=str.lower)))
        print('Required-by: %s' % ', '.join(sorted(requirers.get(_canon(m['Name']), []), key=str.lower)))
    return 0 if found else 1

# pip freeze leaves out the installer's own tools, as pip does.
_FREEZE_SKIP = {'pip', 'setuptools', 'wheel', 'distribute'}

def _list(fmt, paths):
    rows = _installed(paths)
    if fmt == 'freeze':
        for n, v in rows:
            if _canon(n) not in _FREEZE_SKIP:
                print('%s==%s' % (n, v))
        return 0
    if not rows:
        return 0
    w1 = max(len('Package'), *(len(n) for n, _ in rows))
    w2 = max(len('Version'), *(len(v) for _, v in rows))
    print(('%s %s' % ('Package'.ljust(w1), 'Version')).rstrip())
    print('%s %s' % ('-' * w1, '-' * w2))
    for n, v in rows:
        print(('%s %s' % (n.ljust(w1), v)).rstrip())
    return 0

USAGE = """Usage:
  pip install [--user] [--no-deps] [-i URL] [--extra-index-url URL] [-r FILE] <requirement, wheel file or URL> ...
  pip uninstall [-y] [-v] <package> ...
  pip show <package> ...
  pip list [--path DIR]
  pip freeze [--path DIR]
  pip --version
"""

def _paths(rest):
    out = []
    for i, a in enumerate(rest):
        if a == '--path' and i + 1 < len(rest):
            out.append(rest[i + 1])
        elif a.startswith('--path='):
            out.append(a[len('--path='):])
    return out or None

def _vkey(v):
    import re
    return tuple((1, int(p), '') if p.isdigit() else (0, 0, p) for p in re.split(r'[.+!_-]', v))

def _pre(v):
    import re
    return re.search(r'(a|b|rc|dev|alpha|beta|c)\d*', v.split('+')[0].split('.')[-1] if '.' in v else v) is not None

def _satisfies(v, spec):
    """A version against a PEP 440 specifier set (==, !=, <=, >=, <, >, ~=, with == X.* prefixes)."""
    import re
    for part in [p.strip() for p in spec.split(',') if p.strip()]:
        m = re.match(r'(===|==|!=|<=|>=|~=|<|>)\s*(\S+)', part)
        if not m:
            continue
        op, want = m.groups()
        if want.endswith('.*'):
            pre = want[:-2]
            hit = v == pre or v.startswith(pre + '.')
            if (op == '==') != hit:
                return False
            continue
        a, b = _vkey(v), _vkey(want)
        if op == '~=':
            head = want.split('.')[:-1]
            if not (a >= b and v.split('.')[:len(head)] == head):
                return False
        elif not {'==': a == b, '===': v == want, '!=': a != b, '<=': a <= b, '>=': a >= b, '<': a < b, '>': a > b}[op]:
            return False
    return True

_ENV = None

def _marker(text, extras=()):
    """Evaluate a PEP 508 environment marker for this interpreter."""
    import re, platform
    global _ENV
    if _ENV is None:
        _ENV = {'python_version': '%d.%d' % sys.version_info[:2], 'python_full_version': platform.python_version(),
                'os_name': os.name, 'sys_platform': sys.platform, 'platform_system': platform.system(),
                'platform_machine': platform.machine(), 'platform_release': platform.release(),
                'implementation_name': sys.implementation.name, 'platform_python_implementation': platform.python_implementation(),
                'implementation_version': platform.python_version(), 'platform_version': platform.version()}
    toks = re.findall(r"""\s*('[^']*'|"[^"]*"|\(|\)|===|==|!=|<=|>=|~=|<|>|not\s+in\b|in\b|and\b|or\b|[A-Za-z_][A-Za-z0-9_.]*)""", text)
    pos = [0]
    def peek(): return toks[pos[0]].strip() if pos[0] < len(toks) else None
    def take(): pos[0] += 1; return toks[pos[0] - 1].strip()
    def value():
        t = take()
        if t[0] in '\'"': return ('str', t[1:-1])
        if t == 'extra': return ('extra', None)
        if t not in _ENV: raise ValueError('unknown marker variable %s' % t)
        return ('var', _ENV[t], t)
    def compare():
        if peek() == '(':
            take(); r = disj(); take(); return r
        left, op, right = value(), re.sub(r'\s+', ' ', take()), value()
        if left[0] == 'extra' or right[0] == 'extra':
            want = (right if left[0] == 'extra' else left)[1]
            hit = any(_canon(e) == _canon(want) for e in extras)
            return hit if op == '==' else not hit
        a, b = left[1], right[1]
        if op in ('in', 'not in'):
            return (a in b) == (op == 'in')
        versions = any(x[0] == 'var' and x[2].endswith('version') for x in (left, right))
        if versions and op not in ('===',):
            return _satisfies(a, op + b)
        return {'==': a == b, '===': a == b, '!=': a != b, '<': a < b, '<=': a <= b, '>': a > b, '>=': a >= b, '~=': a == b}[op]
    def conj():
        r = compare()
        while peek() == 'and':
            take(); r = compare() and r
        return r
    def disj():
        r = conj()
        while peek() == 'or':
            take(); r = conj() or r
        return r
    return disj()

def _parse_req(text):
    import re
    req, _, marker = text.partition(';')
    m = re.match(r'\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*\(?([^)]*)\)?\s*$', req)
    if not m:
        raise ValueError('Invalid requirement: %r' % text)
    extras = [e.strip() for e in (m.group(2) or '[]')[1:-1].split(',') if e.strip()]
    return m.group(1), extras, m.group(3).strip(), marker.strip()

def _get(url, accept='*/*'):
    import urllib.request
    import urllib.error
    req = urllib.request.Request(url, headers={'User-Agent': 'pip/%s' % __version__, 'Accept': accept})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.read(), r.url, r.headers.get('Content-Type') or ''
    except urllib.error.URLError as e:
        e.url = url
        raise

def _why(e):
    import urllib.error
    if isinstance(e, urllib.error.HTTPError):
        return 'HTTP %d %s' % (e.code, e.reason)
    r = e.reason
    return r.strerror if isinstance(r, OSError) and r.strerror else str(r)

def _download(url, to):
    import hashlib, urllib.parse
    data, _, _ = _get(url.split('#')[0])
    frag = urllib.parse.urlsplit(url).fragment
    if frag.startswith('sha256=') and hashlib.sha256(data).hexdigest() != frag[len('sha256='):]:
        raise ValueError('THESE PACKAGES DO NOT MATCH THE HASHES: %s' % url.split('#')[0])
    name = urllib.parse.unquote(urllib.parse.urlsplit(url).path.rsplit('/', 1)[-1])
    path = os.path.join(to, name)
    with open(path, 'wb') as f:
        f.write(data)
    print('  Downloading %s (%s kB)' % (name, max(1, len(data) // 1024)))
    return path

def _pure(filename):
    parts = filename[:-4].split('-')
    return filename.endswith('.whl') and len(parts) >= 5 and parts[-1] == 'any' and parts[-2] in ('none', 'abi3') and \
        any(t.startswith('py3') or t == 'py2.py3' for t in parts[-3].split('.'))

# PEP 691 JSON first, PEP 503 HTML as the fallback: the index answers with what it serves.
_ACCEPT = 'application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01'

def _links(index, name):
    """(filename, url, requires-python) for each file an index lists for name; [] when it has no such project."""
    import html, json, re, urllib.error, urllib.parse
    try:
        page, url, ctype = _get(index.rstrip('/') + '/' + _canon(name) + '/', _ACCEPT)
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return []
        raise
    if 'json' in ctype:
        files = json.loads(page.decode('utf-8')).get('files', [])
        out = []
        for f in files:
            if f.get('yanked'):
                continue
            sha = (f.get('hashes') or {}).get('sha256')
            link = urllib.parse.urljoin(url, f['url']) + ('#sha256=' + sha if sha and '#' not in f['url'] else '')
            out.append((f['filename'], link, f.get('requires-python') or ''))
        return out
    out = []
    for tag in re.findall(r'<a\s[^>]*>', page.decode('utf-8', 'replace'), re.I):
        href = re.search(r'href="([^"]+)"', tag, re.I)
        if not href or re.search(r'data-yanked', tag, re.I):
            continue
        href = html.unescape(href.group(1))
        rp = re.search(r'data-requires-python="([^"]*)"', tag, re.I)
        fname = urllib.parse.unquote(urllib.parse.urlsplit(href).path.rsplit('/', 1)[-1])
        out.append((fname, urllib.parse.urljoin(url, href), html.unescape(rp.group(1)) if rp else ''))
    return out

def _find(indexes, name, spec):
    """The best pure-Python wheel for name on any of the indexes: ((version, url), None) or (None, versions seen)."""
    import re
    here = '%d.%d.%d' % sys.version_info[:3]
    found, versions = [], set()
    for index in indexes:
        for fname, url, needs in _links(index, name):
            m = re.match(r'([^-]+)-([^-]+)-', fname)
            if not m or _canon(m.group(1)) != _canon(name):
                continue
            versions.add(m.group(2))
            if needs and not _satisfies(here, needs):
                continue
            if _pure(fname) and _satisfies(m.group(2), spec) and (not _pre(m.group(2)) or '==' in spec):
                found.append((_vkey(m.group(2)), m.group(2), url))
    if not found:
        return None, sorted(versions, key=_vkey)
    best = max(found)
    return (best[1], best[2]), None

def _config():
    """pip.conf as pip reads it: PIP_CONFIG_FILE, else /etc/pip.conf then the user's files (later wins); [global] then [install]."""
    import configparser
    env = os.environ.get('PIP_CONFIG_FILE')
    home = os.path.expanduser('~')
    files = [env] if env else ['/etc/pip.conf', os.path.join(os.environ.get('XDG_CONFIG_HOME') or os.path.join(home, '.config'), 'pip', 'pip.conf'),
                               os.path.join(home, '.pip', 'pip.conf')]
    cp = configparser.ConfigParser()
    cp.read([f for f in files if f and os.path.isfile(f)])
    out = {}
    for section in ('global', 'install'):
        if cp.has_section(section):
            out.update(cp.items(section))
    return out

def _install(rest):
    import tempfile, urllib.parse
    user = '--user' in rest
    no_deps = '--no-deps' in rest
    # The index: --index-url, else PIP_INDEX_URL, else pip.conf's index-url, else PyPI; extra indexes add to it.
    conf = _config()
    index = os.environ.get('PIP_INDEX_URL') or conf.get('index-url') or 'https://pypi.org/simple'
    extra = (os.environ.get('PIP_EXTRA_INDEX_URL') or conf.get('extra-index-url') or '').split()
    targets, i = [], 0
    while i < len(rest):
        a = rest[i]
        if a in ('-i', '--index-url') and i + 1 < len(rest):
            index, i = rest[i + 1], i + 2
            continue
        if a == '--extra-index-url' and i + 1 < len(rest):
            extra, i = extra + [rest[i + 1]], i + 2
            continue
        if a.startswith('--extra-index-url='):
            extra.append(a.split('=', 1)[1])
        if a in ('-r', '--requirement') and i + 1 < len(rest):
            with open(rest[i + 1]) as f:
                targets += [l.split('#')[0].strip() for l in f if l.split('#')[0].strip() and not l.startswith('-')]
            i += 2
            continue
        if a.startswith('--index-url='):
            index = a.split('=', 1)[1]
        elif a in ('-e', '--editable'):
            print('ERROR: editable installs need a build backend; %s' % PURE_ONLY, file=sys.stderr)
            return 1
        elif not a.startswith('-'):
            targets.append(a)
        i += 1
    if not targets:
        print('ERROR: You must give at least one requirement to install (see "pip help install")', file=sys.stderr)
        return 1
    tmp = tempfile.mkdtemp(prefix='pip-')
    done, installed = set(), []
    queue = [(t, []) for t in targets]
    try:
        while queue:
            t, extras = queue.pop(0)
            if t.endswith('.whl') and os.path.exists(t):
                wheel = t
            elif os.path.exists(t):
                print('ERROR: %s: cannot build a source distribution; %s' % (t, PURE_ONLY), file=sys.stderr)
                return 1
            elif urllib.parse.urlsplit(t).scheme in ('http', 'https'):
                if not _pure(urllib.parse.unquote(urllib.parse.urlsplit(t).path.rsplit('/', 1)[-1])):
                    print('ERROR: %s is not a pure-Python wheel; %s' % (t, PURE_ONLY), file=sys.stderr)
                    return 1
                print('Collecting %s' % t)
                wheel = _download(t, tmp)
            else:
                try:
                    name, extras, spec, marker = _parse_req(t)
                except ValueError as e:
                    print('ERROR: %s' % e, file=sys.stderr)
                    return 1
                if marker and not _marker(marker):
                    continue
                if _canon(name) in done:
                    continue
                have = _dists().get(_canon(name))
                if have is not None and _satisfies(have.version, spec):
                    print('Requirement already satisfied: %s in %s (%s)' % (name, os.path.dirname(str(have._path)), have.version))
                    done.add(_canon(name))
                    continue
                print('Collecting %s' % t)
                best, versions = _find([index] + extra, name, spec)
                if best is None:
                    print('ERROR: Could not find a version that satisfies the requirement %s (from versions: %s); %s'
                          % (t, ', '.join(versions) or 'none', PURE_ONLY), file=sys.stderr)
                    print('ERROR: No matching distribution found for %s' % t, file=sys.stderr)
                    return 1
                wheel = _download(best[1], tmp)
            # Another version installed: pip removes it first.
            old = _dists().get(_canon(os.path.basename(wheel).split('-')[0]))
            if old is not None:
                print('  Attempting uninstall: %s' % old.metadata['Name'])
                _uninstall(old.metadata['Name'], indent='    ')
            info = install_wheel(wheel, user, out=io.StringIO())
            import importlib.metadata as md
            d = md.PathDistribution(__import__('pathlib').Path(info))
            done.add(_canon(d.metadata['Name']))
            installed.append('%s-%s' % (d.metadata['Name'], d.version))
            if not no_deps:
                for r in d.requires or []:
                    req, _, marker = r.partition(';')
                    if marker.strip() and not _marker(marker.strip(), extras):
                        continue
                    queue.append((req.strip(), []))
    except (ValueError, OSError, zipfile.BadZipFile) as e:
        import urllib.error
        if isinstance(e, urllib.error.URLError):
            print('ERROR: cannot reach %s: %s' % (getattr(e, 'url', None) or index, _why(e)), file=sys.stderr)
        else:
            print('ERROR: %s' % e, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if installed:
        print('Successfully installed %s' % ' '.join(installed))
    return 0

def main(args):
    if not args or args[0] in ('-h', '--help', 'help'):
        sys.stdout.write(USAGE)
        return 0
    if args[0] in ('-V', '--version'):
        print('pip %s from %s (python %d.%d)' % (__version__, os.path.dirname(__file__), *sys.version_info[:2]))
        return 0
    cmd, rest = args[0], args[1:]
    if cmd == 'install':
        return _install(rest)
    if cmd == 'uninstall':
        names = [a for a in rest if not a.startswith('-')]
        if not names:
            print('ERROR: You must give at least one requirement to uninstall (see "pip help uninstall")', file=sys.stderr)
            return 1
        verbose = any(a in ('-v', '--verbose') for a in rest)
        return max(_uninstall(n, verbose) for n in names)
    if cmd == 'show':
        names = [a for a in rest if not a.startswith('-')]
        if not names:
            print('ERROR: Please provide a package name or names.', file=sys.stderr)
            return 1
        return _show(names)
    if cmd in ('list', 'freeze'):
        return _list(cmd, _paths(rest))
    print('ERROR: unknown command "%s"' % cmd, file=sys.stderr)
    return 1

async def micropip_install(requirements, *args, **kwargs):
    reqs = [requirements] if isinstance(requirements, str) else list(requirements)
    err = io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = io.StringIO(), err
    try:
        status = _install([r[len('emfs:'):] if r.startswith('emfs:') else r for r in reqs])
    finally:
        sys.stdout, sys.stderr = saved
    if status:
        raise ValueError('micropip: ' + err.getvalue().strip())
`;
