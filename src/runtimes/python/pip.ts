// `pip` (and micropip.install) inside agentOS. There is no network yet, so an
// install that needs an index fails with a message naming the network
// policy; a pure-Python wheel already in the VFS is installed offline by
// unpacking it (a wheel is a zip) into site-packages, as pip would.

export const PIP = String.raw`
import os, sys, zipfile, csv, io, shutil

__version__ = '24.0+agentos'
NETWORK = ("network access is not allowed by this VM's network policy (agentOS has no network yet); "
           "to install offline, put a pure-Python wheel in the VFS and run: pip install ./NAME-VERSION-py3-none-any.whl")

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
        for cmd, body in scripts:
            os.makedirs(bindir, exist_ok=True)
            p = os.path.join(bindir, cmd)
            with open(p, 'wb') as f:
                f.write(body)
            os.chmod(p, 0o755)
        with open(os.path.join(site, info, 'INSTALLER'), 'w') as f:
            f.write('pip\n')
    dist = info[:-len('.dist-info')].replace('_', '-')
    print('Successfully installed %s' % dist, file=out)

def _installed():
    import importlib.metadata as md
    seen = {}
    for d in md.distributions():
        seen.setdefault(d.metadata['Name'], d.version)
    return sorted(seen.items(), key=lambda kv: kv[0].lower())

def _uninstall(name):
    import importlib.metadata as md
    try:
        d = md.distribution(name)
    except md.PackageNotFoundError:
        print('WARNING: Skipping %s as it is not installed.' % name, file=sys.stderr)
        return
    base = d.locate_file('')
    for f in d.files or []:
        p = os.path.join(base, str(f))
        if os.path.isfile(p):
            os.remove(p)
    shutil.rmtree(str(d._path), ignore_errors=True)
    print('Successfully uninstalled %s-%s' % (d.metadata['Name'], d.version))

USAGE = '''Usage:
  pip install [--user] <wheel file> ...
  pip uninstall [-y] <package> ...
  pip list
  pip --version
'''

def main(args):
    if not args or args[0] in ('-h', '--help', 'help'):
        sys.stdout.write(USAGE)
        return 0
    if args[0] in ('-V', '--version'):
        print('pip %s from %s (python %d.%d)' % (__version__, os.path.dirname(__file__), *sys.version_info[:2]))
        return 0
    cmd, rest = args[0], args[1:]
    if cmd == 'install':
        user = '--user' in rest
        targets = [a for a in rest if not a.startswith('-')]
        if any(a in ('-r', '--requirement', '-e', '--editable') for a in rest) or not targets:
            print('ERROR: ' + (NETWORK if targets else 'You must give at least one requirement to install'), file=sys.stderr)
            return 1
        for t in targets:
            if t.endswith('.whl') and os.path.exists(t):
                try:
                    install_wheel(t, user)
                except (ValueError, OSError, zipfile.BadZipFile) as e:
                    print('ERROR: %s' % e, file=sys.stderr)
                    return 1
            elif os.path.exists(t):
                print('ERROR: %s: only wheels install offline (building a source distribution needs build tools from the network); %s' % (t, NETWORK), file=sys.stderr)
                return 1
            else:
                print("ERROR: cannot install '%s': %s" % (t, NETWORK), file=sys.stderr)
                return 1
        return 0
    if cmd == 'uninstall':
        for n in [a for a in rest if not a.startswith('-')]:
            _uninstall(n)
        return 0
    if cmd in ('list', 'freeze'):
        for n, v in _installed():
            print(('%s==%s' if cmd == 'freeze' else '%-20s %s') % (n, v))
        return 0
    print('ERROR: unknown command "%s"' % cmd, file=sys.stderr)
    return 1

async def micropip_install(requirements, *args, **kwargs):
    for r in [requirements] if isinstance(requirements, str) else requirements:
        path = r[len('emfs:'):] if r.startswith('emfs:') else r
        if path.endswith('.whl') and os.path.exists(path):
            install_wheel(path, out=io.StringIO())
        else:
            raise ValueError("micropip: cannot install '%s': %s" % (r, NETWORK))
`;
