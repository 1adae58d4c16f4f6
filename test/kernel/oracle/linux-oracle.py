#!/usr/bin/env python3
"""Run the VFS case table (test/kernel/vfs-cases.ts) on real Linux and report
every case where Linux disagrees with the table.

Must run as root: unprivileged cases fork and drop to uid/gid 65534, and
`mount: true` cases mount a fresh tmpfs on <scratch>/mnt. All scratch dirs live
on a private tmpfs so results match tmpfs semantics. Without root, those cases
are skipped. Mirrors test/kernel/vfs-cases-runner.ts; keep the two in step.

Usage: python3 test/kernel/oracle/linux-oracle.py [-v] [name-substring]
"""

import ctypes
import errno
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
NOBODY = 65534
libc = ctypes.CDLL(None, use_errno=True)

FLAGS = {
    'O_RDONLY': os.O_RDONLY, 'O_WRONLY': os.O_WRONLY, 'O_RDWR': os.O_RDWR, 'O_CREAT': os.O_CREAT,
    'O_EXCL': os.O_EXCL, 'O_TRUNC': os.O_TRUNC, 'O_APPEND': os.O_APPEND, 'O_NONBLOCK': os.O_NONBLOCK,
    'O_DIRECTORY': os.O_DIRECTORY, 'O_NOFOLLOW': os.O_NOFOLLOW, 'O_CLOEXEC': os.O_CLOEXEC,
    'F_OK': os.F_OK, 'R_OK': os.R_OK, 'W_OK': os.W_OK, 'X_OK': os.X_OK,
    'SEEK_SET': os.SEEK_SET, 'SEEK_CUR': os.SEEK_CUR, 'SEEK_END': os.SEEK_END,
    'S_IFREG': stat.S_IFREG, 'S_IFCHR': stat.S_IFCHR, 'S_IFBLK': stat.S_IFBLK, 'S_IFIFO': stat.S_IFIFO,
    'S_IFSOCK': stat.S_IFSOCK, 'S_IFDIR': stat.S_IFDIR, 'S_IFMT': 0o170000,
}
KINDS = {stat.S_IFREG: 'file', stat.S_IFDIR: 'dir', stat.S_IFLNK: 'symlink', stat.S_IFIFO: 'fifo',
         stat.S_IFCHR: 'chr', stat.S_IFBLK: 'blk', stat.S_IFSOCK: 'sock'}


def load_cases():
    bundle = subprocess.run(
        ['npx', 'esbuild', '--bundle', '--platform=node', '--format=esm', '--log-level=warning',
         'test/kernel/oracle/dump-cases.ts'], cwd=REPO, capture_output=True, check=True).stdout
    out = subprocess.run(['node', '--input-type=module'], input=bundle, capture_output=True, check=True).stdout
    return json.loads(out)


def flags(a):
    if isinstance(a, int):
        return a
    n = 0
    for part in a.split('|'):
        n |= FLAGS[part.strip()]
    return n


def stat_fields(s):
    return {'type': KINDS.get(stat.S_IFMT(s.st_mode)), 'perm': s.st_mode & 0o7777, 'size': s.st_size,
            'nlink': s.st_nlink, 'uid': s.st_uid, 'gid': s.st_gid, 'mtimeMs': s.st_mtime_ns / 1e6}


def text(b):
    return b.decode('utf-8', errors='replace')


def c_access(path, mode):
    # os.access() hides the errno (e.g. EINVAL for a bad mode); call libc directly.
    if libc.access(os.fsencode(path), ctypes.c_int(mode)) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e), path)


class Session:
    def __init__(self, scratch):
        self.scratch = scratch
        self.fds = {}

    def fd(self, name):
        return self.fds.get(str(name), 1_000_000)

    def run(self, op):
        name, a = op[0], op[1:]
        n = lambda i, d=0: d if i >= len(a) else flags(a[i])
        if name == 'open':
            fd = os.open(a[0], flags(a[1]), n(2))
            self.fds['fd' if len(a) < 4 else a[3]] = fd
        elif name == 'close':
            os.close(self.fd(a[0]))
            self.fds.pop(a[0], None)
        elif name == 'read':
            return text(os.read(self.fd(a[0]), n(1)))
        elif name == 'write':
            return os.write(self.fd(a[0]), a[1].encode())
        elif name == 'lseek':
            return os.lseek(self.fd(a[0]), n(1), n(2))
        elif name == 'dup':
            self.fds[a[1]] = os.dup(self.fd(a[0]))
        elif name == 'pipe':
            self.fds[a[0]], self.fds[a[1]] = os.pipe()
        elif name == 'fstat':
            return stat_fields(os.fstat(self.fd(a[0])))
        elif name == 'ftruncate':
            os.ftruncate(self.fd(a[0]), n(1))
        elif name == 'stat':
            return stat_fields(os.stat(a[0]))
        elif name == 'lstat':
            return stat_fields(os.lstat(a[0]))
        elif name == 'mkdir':
            os.mkdir(a[0], n(1))
        elif name == 'rmdir':
            os.rmdir(a[0])
        elif name == 'unlink':
            os.unlink(a[0])
        elif name == 'rename':
            os.rename(a[0], a[1])
        elif name == 'link':
            os.link(a[0], a[1], follow_symlinks=False)
        elif name == 'symlink':
            os.symlink(a[0], a[1])
        elif name == 'readlink':
            return os.readlink(a[0])
        elif name == 'chmod':
            os.chmod(a[0], n(1))
        elif name == 'chown':
            os.chown(a[0], n(1), n(2))
        elif name == 'truncate':
            os.truncate(a[0], n(1))
        elif name == 'access':
            c_access(a[0], n(1))
        elif name == 'mkfifo':
            os.mknod(a[0], stat.S_IFIFO | n(1), 0)
        elif name == 'mknod':
            os.mknod(a[0], n(1) | n(2), n(3))
        elif name == 'utimes':
            if len(a) > 1:
                os.utime(a[0], ns=(int(a[1] * 1_000_000), int(a[2] * 1_000_000)))
            else:
                os.utime(a[0])
        elif name == 'chdir':
            os.chdir(a[0])
        elif name == 'getcwd':
            cwd = os.getcwd()
            if cwd == self.scratch:
                return '.'
            return cwd[len(self.scratch) + 1:] if cwd.startswith(self.scratch + '/') else cwd
        elif name == 'readdir':
            return sorted(os.listdir(a[0]))
        elif name == 'writefile':
            fd = os.open(a[0], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            try:
                os.write(fd, a[1].encode())
            finally:
                os.close(fd)
        elif name == 'readfile':
            fd = os.open(a[0], os.O_RDONLY)
            try:
                chunks = []
                while True:
                    b = os.read(fd, 65536)
                    if not b:
                        break
                    chunks.append(b)
                return text(b''.join(chunks))
            finally:
                os.close(fd)
        else:
            raise ValueError(f'unknown op {name}')
        return None

    def attempt(self, op):
        try:
            return {'value': self.run(op)}
        except OSError as e:
            return {'error': errno.errorcode.get(e.errno, f'E{e.errno}')}

    def close_all(self):
        for fd in self.fds.values():
            try:
                os.close(fd)
            except OSError:
                pass
        self.fds.clear()


def show(x):
    return json.dumps(x, ensure_ascii=False)


def compare(expect, outcome):
    if 'error' in outcome:
        return None if expect == outcome['error'] else f'expected {show(expect)}, got {outcome["error"]}'
    if isinstance(expect, str):
        return None if expect == 'ok' else f'expected {expect}, got success {show(outcome["value"])}'
    want, got = expect['value'], outcome['value']
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return f'expected stat {show(want)}, got {show(got)}'
        bad = [k for k in want if got.get(k) != want[k]]
        return None if not bad else 'stat ' + ', '.join(f'{k}: expected {show(want[k])}, got {show(got.get(k))}' for k in bad)
    return None if show(want) == show(got) else f'expected {show(want)}, got {show(got)}'


def run_checks(session, case):
    checks = [[case['op'], case['expect']]] + case.get('after', [])
    for op, expect in checks:
        diff = compare(expect, session.attempt(op))
        if diff:
            return {'pass': False, 'detail': f'{show(op)}: {diff}'}
    return {'pass': True, 'detail': ''}


def as_nobody(session, case):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            res = run_checks(session, case)
        except BaseException as e:  # report, never fall back into the parent's loop
            res = {'pass': False, 'detail': f'child crashed: {e!r}'}
        os.write(w, json.dumps(res).encode())
        os._exit(0)
    os.close(w)
    data = b''
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    return json.loads(data)


def run_case(case, scratch, can_root):
    session = Session(scratch)
    mnt = os.path.join(scratch, 'mnt')
    mounted = False
    try:
        os.chdir(scratch)
        if case.get('mount'):
            os.mkdir('mnt', 0o755)
            subprocess.run(['mount', '-t', 'tmpfs', '-o', 'mode=0755', 'tmpfs', mnt], check=True)
            mounted = True
        for op in case.get('setup', []):
            out = session.attempt(op)
            if 'error' in out:
                return {'pass': False, 'detail': f'setup {show(op)} failed: {out["error"]}'}
        if case.get('user') == 'nobody':
            return as_nobody(session, case)
        return run_checks(session, case)
    finally:
        session.close_all()
        os.chdir('/')
        if mounted:
            subprocess.run(['umount', '-l', mnt], check=False)


def main():
    verbose = '-v' in sys.argv
    filters = [a for a in sys.argv[1:] if a != '-v']
    cases = load_cases()
    if filters:
        cases = [c for c in cases if any(f in c['name'] for f in filters)]
    can_root = os.geteuid() == 0
    os.umask(0o022)
    base = tempfile.mkdtemp(prefix='vfs-oracle-')
    base_mounted = False
    if can_root:
        base_mounted = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'mode=0755', 'tmpfs', base]).returncode == 0
    if not base_mounted:
        print('warning: scratch dirs are not on tmpfs; some sizes may differ', file=sys.stderr)
    mismatches = skipped = 0
    try:
        for i, case in enumerate(cases):
            if not can_root and (case.get('user') or case.get('mount')):
                skipped += 1
                continue
            scratch = os.path.join(base, f'c{i}')
            os.mkdir(scratch)
            os.chmod(scratch, 0o777)
            res = run_case(case, scratch, can_root)
            if not res['pass']:
                mismatches += 1
                print(f'MISMATCH {case["name"]}: {res["detail"]}')
            elif verbose:
                print(f'ok {case["name"]}')
            shutil.rmtree(scratch, ignore_errors=True)
    finally:
        os.chdir('/')
        if base_mounted:
            subprocess.run(['umount', '-l', base], check=False)
        shutil.rmtree(base, ignore_errors=True)
    print(f'{len(cases) - skipped} cases run on Linux {os.uname().release}, {mismatches} mismatches, {skipped} skipped')
    sys.exit(1 if mismatches else 0)


if __name__ == '__main__':
    main()
