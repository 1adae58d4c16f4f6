// The VFS/fd errno table: host-agnostic, data-only cases run by
// vfs-cases-runner.ts against any CaseTarget (the Vfs directly, real syscalls
// from agentOS processes) and by oracle/linux-oracle.py against real Linux.
//
// Checked against Linux 6.18.44 (uname -r: 6.18.44-fc-v669, tmpfs, with
// fs.protected_hardlinks=1) by test/kernel/oracle/linux-oracle.py: 0 mismatches.
//
// Conventions:
// - Every case starts in a fresh scratch directory (mode 0777, owned by root),
//   which is also the cwd; relative paths start there. umask is 022.
// - setup ops run as root and must succeed. With `user: 'nobody'` the op under
//   test and the `after` checks then run as uid/gid 65534 (no supplementary groups).
// - `mount: true`: before setup, "mnt" is created and a fresh empty tmpfs (root
//   mode 0755, owned by root) is mounted on it.
// - ['mknod', path, typeName, perm, dev = 0]; a 0:0 char device is an overlayfs
//   whiteout, which Linux lets anyone create.
// - open/dup/pipe name their fds: ['open', path, flags, mode?, name = 'fd'],
//   ['dup', fd, name], ['pipe', readName, writeName].
// - expect: 'ok', an errno name, or { value } compared with the op's result:
//   read/readfile/readlink → text; write/lseek → number; getcwd → path relative
//   to the scratch dir ('.' for the scratch dir itself); readdir → sorted names
//   without '.' and '..'; stat/lstat/fstat → the listed fields only
//   (type, perm = mode & 07777, size, nlink, uid, gid, mtimeMs).

export type Arg = string | number;
export type Op = readonly [string, ...Arg[]];
export type FileKind = 'file' | 'dir' | 'symlink' | 'fifo' | 'chr' | 'blk' | 'sock';

export interface StatFields {
  type?: FileKind;
  perm?: number;
  size?: number;
  nlink?: number;
  uid?: number;
  gid?: number;
  mtimeMs?: number;
}

export type Value = string | number | string[] | StatFields;
export type Expect = string | { value: Value };

export interface VfsCase {
  name: string;
  user?: 'nobody';
  mount?: boolean;
  setup?: Op[];
  op: Op;
  expect: Expect;
  after?: [Op, Expect][];
}

export const NOBODY = 65534;

const long = 'n'.repeat(256);
const max = 'm'.repeat(255);
/** l1 → l2 → ... → l<n> → f: following l1 takes n symlinks. */
const chain = (n: number): Op[] => [
  ['writefile', 'f', 'end'],
  ...Array.from({ length: n }, (_, i): Op => ['symlink', i + 1 === n ? 'f' : `l${i + 2}`, `l${i + 1}`]),
];
const file = (path = 'f', text = 'data'): Op => ['writefile', path, text];
const dir = (path = 'd', mode = 0o755): Op => ['mkdir', path, mode];
/** mkdir, then chmod: the exact mode, past the umask. */
const dirExact = (path: string, mode: number): Op[] => [['mkdir', path, mode], ['chmod', path, mode]];
const asNobody = (path: string): Op => ['chown', path, NOBODY, NOBODY];
const v = (value: Value): { value: Value } => ({ value });

export const cases: VfsCase[] = [
  // ------------------------------------------------------------ ENOENT
  { name: 'open missing file', op: ['open', 'missing', 'O_RDONLY'], expect: 'ENOENT' },
  { name: 'create in missing dir', op: ['open', 'nodir/f', 'O_WRONLY|O_CREAT', 0o644], expect: 'ENOENT' },
  { name: 'stat empty path', op: ['stat', ''], expect: 'ENOENT' },
  { name: 'unlink missing', op: ['unlink', 'missing'], expect: 'ENOENT' },
  { name: 'rmdir missing', op: ['rmdir', 'missing'], expect: 'ENOENT' },
  { name: 'rename missing source', op: ['rename', 'missing', 'x'], expect: 'ENOENT' },
  { name: 'rename into missing dir', setup: [file()], op: ['rename', 'f', 'nodir/f'], expect: 'ENOENT' },
  { name: 'link missing source', op: ['link', 'missing', 'x'], expect: 'ENOENT' },
  { name: 'readlink missing', op: ['readlink', 'missing'], expect: 'ENOENT' },
  { name: 'stat dangling symlink', setup: [['symlink', 'nowhere', 'l']], op: ['stat', 'l'], expect: 'ENOENT' },
  { name: 'lstat dangling symlink', setup: [['symlink', 'nowhere', 'l']], op: ['lstat', 'l'], expect: v({ type: 'symlink', size: 7 }) },
  { name: 'chdir missing', op: ['chdir', 'missing'], expect: 'ENOENT' },
  { name: 'mkdir under missing parent', op: ['mkdir', 'a/b', 0o755], expect: 'ENOENT' },
  { name: 'symlink in missing dir', op: ['symlink', 't', 'nodir/l'], expect: 'ENOENT' },
  { name: 'symlink with empty target', op: ['symlink', '', 'l'], expect: 'ENOENT' },
  { name: 'mkfifo in missing dir', op: ['mkfifo', 'nodir/p', 0o644], expect: 'ENOENT' },
  { name: 'symlink named with trailing slash', op: ['symlink', 't', 'new/'], expect: 'ENOENT' },
  { name: 'mkfifo named with trailing slash', op: ['mkfifo', 'new/', 0o644], expect: 'ENOENT' },
  { name: 'link to a name with trailing slash', setup: [file()], op: ['link', 'f', 'new/'], expect: 'ENOENT' },
  { name: 'unlink missing with trailing slash', op: ['unlink', 'missing/'], expect: 'ENOENT' },
  { name: 'access missing F_OK', op: ['access', 'missing', 'F_OK'], expect: 'ENOENT' },
  { name: 'truncate missing', op: ['truncate', 'missing', 0], expect: 'ENOENT' },
  { name: 'open dangling symlink', setup: [['symlink', 'nowhere', 'l']], op: ['open', 'l', 'O_RDONLY'], expect: 'ENOENT' },
  {
    name: 'getcwd in removed directory',
    setup: [dir(), ['chdir', 'd'], ['rmdir', '../d']],
    op: ['getcwd'], expect: 'ENOENT',
  },
  { name: 'mkdir in removed cwd', setup: [dir(), ['chdir', 'd'], ['rmdir', '../d']], op: ['mkdir', 'x', 0o755], expect: 'ENOENT' },
  {
    name: 'create file in removed cwd',
    setup: [dir(), ['chdir', 'd'], ['rmdir', '../d']],
    op: ['open', 'x', 'O_WRONLY|O_CREAT', 0o644], expect: 'ENOENT',
  },
  { name: 'stat .. of removed cwd still works', setup: [dir(), ['chdir', 'd'], ['rmdir', '../d']], op: ['stat', '..'], expect: v({ type: 'dir' }) },
  {
    name: 'O_CREAT through dangling symlink creates the target',
    setup: [['symlink', 'target', 'l']],
    op: ['open', 'l', 'O_WRONLY|O_CREAT', 0o600], expect: 'ok',
    after: [[['lstat', 'target'], v({ type: 'file', perm: 0o600, size: 0 })], [['lstat', 'l'], v({ type: 'symlink' })]],
  },
  { name: 'missing middle component before long name', op: ['stat', `missing/${long}`], expect: 'ENOENT' },
  { name: 'path of 4095 bytes is not too long', op: ['stat', './'.repeat(2047) + 'f'], expect: 'ENOENT' },

  // ------------------------------------------------------------ EEXIST
  { name: 'O_CREAT|O_EXCL on existing file', setup: [file()], op: ['open', 'f', 'O_WRONLY|O_CREAT|O_EXCL', 0o644], expect: 'EEXIST' },
  {
    name: 'O_CREAT|O_EXCL does not follow a dangling symlink',
    setup: [['symlink', 'target', 'l']],
    op: ['open', 'l', 'O_WRONLY|O_CREAT|O_EXCL', 0o644], expect: 'EEXIST',
    after: [[['lstat', 'target'], 'ENOENT']],
  },
  { name: 'O_CREAT|O_EXCL on existing dir', setup: [dir()], op: ['open', 'd', 'O_RDONLY|O_CREAT|O_EXCL', 0o644], expect: 'EEXIST' },
  { name: 'O_CREAT|O_EXCL on .', op: ['open', '.', 'O_RDONLY|O_CREAT|O_EXCL', 0o644], expect: 'EEXIST' },
  { name: 'mkdir existing dir', setup: [dir()], op: ['mkdir', 'd', 0o755], expect: 'EEXIST' },
  { name: 'mkdir over existing file', setup: [file()], op: ['mkdir', 'f', 0o755], expect: 'EEXIST' },
  { name: 'mkdir .', op: ['mkdir', '.', 0o755], expect: 'EEXIST' },
  { name: 'mkdir ..', op: ['mkdir', '..', 0o755], expect: 'EEXIST' },
  { name: 'mkdir /', op: ['mkdir', '/', 0o755], expect: 'EEXIST' },
  { name: 'mkdir over dangling symlink', setup: [['symlink', 'nowhere', 'l']], op: ['mkdir', 'l', 0o755], expect: 'EEXIST' },
  { name: 'mkdir existing with trailing slash', setup: [dir()], op: ['mkdir', 'd/', 0o755], expect: 'EEXIST' },
  { name: 'symlink over existing file', setup: [file()], op: ['symlink', 'x', 'f'], expect: 'EEXIST' },
  { name: 'symlink over existing name with trailing slash', setup: [file()], op: ['symlink', 'x', 'f/'], expect: 'EEXIST' },
  { name: 'link over existing file', setup: [file('a'), file('b')], op: ['link', 'a', 'b'], expect: 'EEXIST' },
  { name: 'mkfifo over existing', setup: [file()], op: ['mkfifo', 'f', 0o644], expect: 'EEXIST' },

  // ------------------------------------------------------------ ENOTDIR
  { name: 'file used as directory', setup: [file()], op: ['open', 'f/x', 'O_RDONLY'], expect: 'ENOTDIR' },
  { name: 'stat file with trailing slash', setup: [file()], op: ['stat', 'f/'], expect: 'ENOTDIR' },
  { name: 'open file with trailing slash', setup: [file()], op: ['open', 'f/', 'O_RDONLY'], expect: 'ENOTDIR' },
  { name: 'O_DIRECTORY on a file', setup: [file()], op: ['open', 'f', 'O_RDONLY|O_DIRECTORY'], expect: 'ENOTDIR' },
  { name: 'mkdir under a file', setup: [file()], op: ['mkdir', 'f/d', 0o755], expect: 'ENOTDIR' },
  { name: 'rmdir a file', setup: [file()], op: ['rmdir', 'f'], expect: 'ENOTDIR' },
  { name: 'chdir to a file', setup: [file()], op: ['chdir', 'f'], expect: 'ENOTDIR' },
  { name: 'rename dir over file', setup: [dir(), file()], op: ['rename', 'd', 'f'], expect: 'ENOTDIR' },
  { name: 'unlink file with trailing slash', setup: [file()], op: ['unlink', 'f/'], expect: 'ENOTDIR' },
  { name: 'rename file to name with trailing slash', setup: [file()], op: ['rename', 'f', 'x/'], expect: 'ENOTDIR' },
  { name: 'rename file given with trailing slash', setup: [file()], op: ['rename', 'f/', 'x'], expect: 'ENOTDIR' },
  { name: 'readdir of a file', setup: [file()], op: ['readdir', 'f'], expect: 'ENOTDIR' },
  { name: 'symlink to file with trailing slash', setup: [file(), ['symlink', 'f', 'l']], op: ['stat', 'l/'], expect: 'ENOTDIR' },
  { name: 'rmdir symlink-to-dir with trailing slash', setup: [dir(), ['symlink', 'd', 'l']], op: ['rmdir', 'l/'], expect: 'ENOTDIR' },
  { name: 'unlink symlink-to-dir with trailing slash', setup: [dir(), ['symlink', 'd', 'l']], op: ['unlink', 'l/'], expect: 'ENOTDIR' },
  { name: 'symlink target runs through a file', setup: [file(), ['symlink', 'f/x', 'l']], op: ['stat', 'l'], expect: 'ENOTDIR' },
  { name: 'link of file with trailing slash', setup: [file()], op: ['link', 'f/', 'g'], expect: 'ENOTDIR' },
  { name: 'truncate file with trailing slash', setup: [file()], op: ['truncate', 'f/', 0], expect: 'ENOTDIR' },

  // ------------------------------------------------------------ EISDIR
  { name: 'open dir O_WRONLY', setup: [dir()], op: ['open', 'd', 'O_WRONLY'], expect: 'EISDIR' },
  { name: 'open dir O_RDWR', setup: [dir()], op: ['open', 'd', 'O_RDWR'], expect: 'EISDIR' },
  { name: 'open dir O_RDONLY|O_TRUNC', setup: [dir()], op: ['open', 'd', 'O_RDONLY|O_TRUNC'], expect: 'EISDIR' },
  { name: 'open existing dir with O_CREAT', setup: [dir()], op: ['open', 'd', 'O_RDONLY|O_CREAT', 0o644], expect: 'EISDIR' },
  { name: 'O_CREAT with trailing slash (new name)', op: ['open', 'new/', 'O_WRONLY|O_CREAT', 0o644], expect: 'EISDIR' },
  { name: 'O_CREAT with trailing slash (existing file)', setup: [file()], op: ['open', 'f/', 'O_WRONLY|O_CREAT', 0o644], expect: 'EISDIR' },
  { name: 'O_CREAT on .', op: ['open', '.', 'O_RDONLY|O_CREAT', 0o644], expect: 'EISDIR' },
  { name: 'unlink a dir', setup: [dir()], op: ['unlink', 'd'], expect: 'EISDIR' },
  { name: 'unlink dir with trailing slash', setup: [dir()], op: ['unlink', 'd/'], expect: 'EISDIR' },
  { name: 'unlink .', op: ['unlink', '.'], expect: 'EISDIR' },
  { name: 'unlink ..', setup: [dir(), ['chdir', 'd']], op: ['unlink', '..'], expect: 'EISDIR' },
  { name: 'rename file over dir', setup: [file(), dir()], op: ['rename', 'f', 'd'], expect: 'EISDIR' },
  { name: 'read from a dir fd', setup: [dir(), ['open', 'd', 'O_RDONLY|O_DIRECTORY']], op: ['read', 'fd', 10], expect: 'EISDIR' },
  { name: 'truncate a dir', setup: [dir()], op: ['truncate', 'd', 0], expect: 'EISDIR' },
  { name: 'unlink a mountpoint', mount: true, op: ['unlink', 'mnt'], expect: 'EISDIR' },

  // ------------------------------------------------------------ ENOTEMPTY
  { name: 'rmdir non-empty dir', setup: [dir(), file('d/f')], op: ['rmdir', 'd'], expect: 'ENOTEMPTY' },
  { name: 'rmdir dir containing only a subdir', setup: [dir(), dir('d/e')], op: ['rmdir', 'd'], expect: 'ENOTEMPTY' },
  { name: 'rename dir over non-empty dir', setup: [dir('a'), dir('b'), file('b/f')], op: ['rename', 'a', 'b'], expect: 'ENOTEMPTY' },
  { name: 'rmdir ..', setup: [dir(), dir('d/e')], op: ['rmdir', 'd/e/..'], expect: 'ENOTEMPTY' },
  { name: 'rename dir onto its own ancestor', setup: [dir('a'), dir('a/b')], op: ['rename', 'a/b', 'a'], expect: 'ENOTEMPTY' },

  // ------------------------------------------------------------ EACCES (unprivileged)
  {
    name: 'read a 0600 root file', user: 'nobody',
    setup: [file(), ['chmod', 'f', 0o600]], op: ['open', 'f', 'O_RDONLY'], expect: 'EACCES',
  },
  { name: 'write a 0644 root file', user: 'nobody', setup: [file()], op: ['open', 'f', 'O_WRONLY'], expect: 'EACCES' },
  { name: 'O_TRUNC needs write permission', user: 'nobody', setup: [file()], op: ['open', 'f', 'O_RDONLY|O_TRUNC'], expect: 'EACCES' },
  { name: 'create in a 0755 root dir', user: 'nobody', setup: [dir()], op: ['open', 'd/f', 'O_WRONLY|O_CREAT', 0o644], expect: 'EACCES' },
  { name: 'create existing file in 0755 dir opens it', user: 'nobody', setup: [dir(), file('d/f'), ['chmod', 'd/f', 0o666]], op: ['open', 'd/f', 'O_WRONLY|O_CREAT', 0o644], expect: 'ok' },
  { name: 'search through a 0700 dir', user: 'nobody', setup: [dir('d', 0o700), file('d/f')], op: ['stat', 'd/f'], expect: 'EACCES' },
  { name: 'search denied beats missing file', user: 'nobody', setup: [dir('d', 0o700)], op: ['stat', 'd/missing'], expect: 'EACCES' },
  { name: 'chdir into a dir without x', user: 'nobody', setup: dirExact('d', 0o766), op: ['chdir', 'd'], expect: 'EACCES' },
  { name: 'stat . when cwd lost x', user: 'nobody', setup: [...dirExact('d', 0o777), ['chdir', 'd'], ['chmod', '.', 0o766]], op: ['stat', '.'], expect: 'EACCES' },
  { name: 'readdir without r', user: 'nobody', setup: [dir('d', 0o711)], op: ['readdir', 'd'], expect: 'EACCES' },
  { name: 'unlink in a 0755 root dir', user: 'nobody', setup: [dir(), file('d/f'), asNobody('d/f')], op: ['unlink', 'd/f'], expect: 'EACCES' },
  { name: 'rmdir in a 0755 root dir', user: 'nobody', setup: [dir(), ...dirExact('d/e', 0o777)], op: ['rmdir', 'd/e'], expect: 'EACCES' },
  { name: 'unlink dir in unwritable dir (EACCES beats EISDIR)', user: 'nobody', setup: [dir(), dir('d/e')], op: ['unlink', 'd/e'], expect: 'EACCES' },
  { name: 'rename out of unwritable dir', user: 'nobody', setup: [dir(), file('d/f')], op: ['rename', 'd/f', 'g'], expect: 'EACCES' },
  { name: 'rename into unwritable dir', user: 'nobody', setup: [dir(), file(), asNobody('f')], op: ['rename', 'f', 'd/f'], expect: 'EACCES' },
  {
    name: 'moving a dir to a new parent needs write on the dir', user: 'nobody',
    setup: [...dirExact('a', 0o777), ...dirExact('b', 0o777), dir('a/d', 0o555)], op: ['rename', 'a/d', 'b/d'], expect: 'EACCES',
  },
  {
    name: 'renaming an unwritable dir in place is fine', user: 'nobody',
    setup: [...dirExact('a', 0o777), dir('a/d', 0o555)], op: ['rename', 'a/d', 'a/e'], expect: 'ok',
  },
  { name: 'moving a file needs no write on the file', user: 'nobody', setup: [...dirExact('a', 0o777), ...dirExact('b', 0o777), file('a/f')], op: ['rename', 'a/f', 'b/f'], expect: 'ok' },
  { name: 'access W_OK on 0644 root file', user: 'nobody', setup: [file()], op: ['access', 'f', 'W_OK'], expect: 'EACCES' },
  { name: 'access R_OK on 0644 root file', user: 'nobody', setup: [file()], op: ['access', 'f', 'R_OK'], expect: 'ok' },
  { name: 'access X_OK on 0644 file', user: 'nobody', setup: [file()], op: ['access', 'f', 'X_OK'], expect: 'EACCES' },
  { name: 'root access X_OK on 0644 file', setup: [file()], op: ['access', 'f', 'X_OK'], expect: 'EACCES' },
  { name: 'root access X_OK on 0744 file', setup: [file(), ['chmod', 'f', 0o744]], op: ['access', 'f', 'X_OK'], expect: 'ok' },
  { name: 'root access W_OK on 0000 file', setup: [file(), ['chmod', 'f', 0]], op: ['access', 'f', 'R_OK|W_OK'], expect: 'ok' },
  { name: 'root opens 0000 file read-write', setup: [file(), ['chmod', 'f', 0]], op: ['open', 'f', 'O_RDWR'], expect: 'ok' },
  { name: 'root search through 0000 dir', setup: [dir('d', 0), file('d/f')], op: ['stat', 'd/f'], expect: v({ type: 'file' }) },
  { name: 'mkdir in unwritable dir', user: 'nobody', setup: [dir()], op: ['mkdir', 'd/e', 0o755], expect: 'EACCES' },
  { name: 'symlink in unwritable dir', user: 'nobody', setup: [dir()], op: ['symlink', 'x', 'd/l'], expect: 'EACCES' },
  { name: 'mkfifo in unwritable dir', user: 'nobody', setup: [dir()], op: ['mkfifo', 'd/p', 0o644], expect: 'EACCES' },
  { name: 'truncate a 0644 root file', user: 'nobody', setup: [file()], op: ['truncate', 'f', 0], expect: 'EACCES' },
  { name: 'touch (utimes now) a 0644 root file', user: 'nobody', setup: [file()], op: ['utimes', 'f'], expect: 'EACCES' },
  { name: 'touch (utimes now) a 0666 root file', user: 'nobody', setup: [file(), ['chmod', 'f', 0o666]], op: ['utimes', 'f'], expect: 'ok' },
  {
    name: 'owner bits apply even when other bits allow', user: 'nobody',
    setup: [file(), asNobody('f'), ['chmod', 'f', 0o077]], op: ['open', 'f', 'O_RDONLY'], expect: 'EACCES',
  },
  { name: 'other bits grant read', user: 'nobody', setup: [file(), ['chmod', 'f', 0o604]], op: ['readfile', 'f'], expect: v('data') },
  {
    name: 'unprivileged create owns the file', user: 'nobody',
    op: ['open', 'f', 'O_WRONLY|O_CREAT', 0o666], expect: 'ok',
    after: [[['stat', 'f'], v({ uid: NOBODY, gid: NOBODY, perm: 0o644 })]],
  },

  // ------------------------------------------------------------ EPERM
  { name: 'hard link to a dir', setup: [dir()], op: ['link', 'd', 'e'], expect: 'EPERM' },
  { name: 'chmod someone else\'s file', user: 'nobody', setup: [file()], op: ['chmod', 'f', 0o777], expect: 'EPERM' },
  { name: 'chown as non-root', user: 'nobody', setup: [file(), asNobody('f')], op: ['chown', 'f', 0, -1], expect: 'EPERM' },
  { name: 'chgrp to a foreign group', user: 'nobody', setup: [file(), asNobody('f')], op: ['chown', 'f', -1, 0], expect: 'EPERM' },
  { name: 'chown to oneself is allowed', user: 'nobody', setup: [file(), asNobody('f')], op: ['chown', 'f', NOBODY, NOBODY], expect: 'ok' },
  { name: 'mknod a char device as non-root', user: 'nobody', op: ['mknod', 'c', 'S_IFCHR', 0o644, 259], expect: 'EPERM' },
  { name: 'mknod a 0:0 whiteout as non-root', user: 'nobody', op: ['mknod', 'c', 'S_IFCHR', 0o644, 0], expect: 'ok' },
  { name: 'mknod a char device as root', op: ['mknod', 'c', 'S_IFCHR', 0o644, 259], expect: 'ok', after: [[['lstat', 'c'], v({ type: 'chr', perm: 0o644 })]] },
  { name: 'mknod S_IFDIR', op: ['mknod', 'd', 'S_IFDIR', 0o755], expect: 'EPERM' },
  { name: 'explicit utimes on someone else\'s file', user: 'nobody', setup: [file(), ['chmod', 'f', 0o666]], op: ['utimes', 'f', 1000, 2000], expect: 'EPERM' },
  {
    name: 'sticky dir: unlink another user\'s file', user: 'nobody',
    setup: [...dirExact('t', 0o1777), file('t/f')], op: ['unlink', 't/f'], expect: 'EPERM',
  },
  {
    name: 'sticky dir: rename another user\'s file', user: 'nobody',
    setup: [...dirExact('t', 0o1777), file('t/f')], op: ['rename', 't/f', 't/g'], expect: 'EPERM',
  },
  {
    name: 'sticky dir: rename over another user\'s file', user: 'nobody',
    setup: [...dirExact('t', 0o1777), file('t/f'), file('t/mine'), asNobody('t/mine')],
    op: ['rename', 't/mine', 't/f'], expect: 'EPERM',
  },
  {
    name: 'sticky dir: rmdir another user\'s dir', user: 'nobody',
    setup: [...dirExact('t', 0o1777), ...dirExact('t/d', 0o777)], op: ['rmdir', 't/d'], expect: 'EPERM',
  },
  {
    name: 'sticky dir: unlink own file', user: 'nobody',
    setup: [...dirExact('t', 0o1777), file('t/f'), asNobody('t/f')], op: ['unlink', 't/f'], expect: 'ok',
  },
  {
    name: 'sticky dir owned by the user: unlink anything', user: 'nobody',
    setup: [...dirExact('t', 0o1777), asNobody('t'), file('t/f')], op: ['unlink', 't/f'], expect: 'ok',
  },
  { name: 'sticky bit is kept by chmod', setup: [dir('t')], op: ['chmod', 't', 0o1777], expect: 'ok', after: [[['stat', 't'], v({ perm: 0o1777 })]] },
  {
    name: 'protected_hardlinks: link to a file one cannot write', user: 'nobody',
    setup: [file()], op: ['link', 'f', 'g'], expect: 'EPERM',
  },
  {
    name: 'protected_hardlinks: link to a file one can read and write', user: 'nobody',
    setup: [file(), ['chmod', 'f', 0o666]], op: ['link', 'f', 'g'], expect: 'ok',
  },
  {
    name: 'chmod setgid outside the file\'s group drops the bit', user: 'nobody',
    setup: [file(), ['chown', 'f', NOBODY, 0]], op: ['chmod', 'f', 0o2755], expect: 'ok',
    after: [[['stat', 'f'], v({ perm: 0o755 })]],
  },

  // ------------------------------------------------------------ EXDEV / EBUSY (second filesystem)
  { name: 'rename a file across filesystems', mount: true, setup: [file()], op: ['rename', 'f', 'mnt/f'], expect: 'EXDEV' },
  { name: 'rename a file out of a mount', mount: true, setup: [file('mnt/f')], op: ['rename', 'mnt/f', 'f'], expect: 'EXDEV' },
  { name: 'rename a dir across filesystems', mount: true, setup: [dir()], op: ['rename', 'd', 'mnt/d'], expect: 'EXDEV' },
  { name: 'hard link across filesystems', mount: true, setup: [file()], op: ['link', 'f', 'mnt/f'], expect: 'EXDEV' },
  { name: 'rmdir a mountpoint', mount: true, op: ['rmdir', 'mnt'], expect: 'EBUSY' },
  { name: 'rename a mountpoint', mount: true, op: ['rename', 'mnt', 'x'], expect: 'EBUSY' },
  { name: 'rmdir /', op: ['rmdir', '/'], expect: 'EBUSY' },
  { name: 'rename .', setup: [dir()], op: ['rename', 'd/.', 'x'], expect: 'EBUSY' },
  { name: 'rename onto ..', setup: [dir(), file()], op: ['rename', 'f', 'd/..'], expect: 'EBUSY' },
  { name: 'a fresh mount is empty', mount: true, op: ['readdir', 'mnt'], expect: v([]) },
  { name: '.. out of a mount root', mount: true, setup: [file()], op: ['readdir', 'mnt/..'], expect: v(['f', 'mnt']) },
  { name: 'getcwd after climbing out of a mount', mount: true, setup: [['chdir', 'mnt'], ['chdir', '..']], op: ['getcwd'], expect: v('.') },
  { name: 'getcwd inside a mount', mount: true, setup: [dir('mnt/d'), ['chdir', 'mnt/d']], op: ['getcwd'], expect: v('mnt/d') },
  { name: 'files on the mount are separate', mount: true, setup: [file('mnt/f', 'inner'), file('f', 'outer')], op: ['readfile', 'mnt/f'], expect: v('inner') },

  // ------------------------------------------------------------ ELOOP
  { name: 'symlink to itself', setup: [['symlink', 'l', 'l']], op: ['stat', 'l'], expect: 'ELOOP' },
  { name: 'two-symlink loop', setup: [['symlink', 'b', 'a'], ['symlink', 'a', 'b']], op: ['open', 'a', 'O_RDONLY'], expect: 'ELOOP' },
  { name: 'loop in a middle component', setup: [['symlink', 'l', 'l']], op: ['stat', 'l/x'], expect: 'ELOOP' },
  { name: 'lstat a looping symlink', setup: [['symlink', 'l', 'l']], op: ['lstat', 'l'], expect: v({ type: 'symlink' }) },
  { name: 'O_NOFOLLOW on a symlink', setup: [file(), ['symlink', 'f', 'l']], op: ['open', 'l', 'O_RDONLY|O_NOFOLLOW'], expect: 'ELOOP' },
  { name: 'O_CREAT|O_NOFOLLOW on a symlink', setup: [file(), ['symlink', 'f', 'l']], op: ['open', 'l', 'O_WRONLY|O_CREAT|O_NOFOLLOW', 0o644], expect: 'ELOOP' },
  { name: 'O_NOFOLLOW only affects the last component', setup: [dir(), file('d/f'), ['symlink', 'd', 'l']], op: ['open', 'l/f', 'O_RDONLY|O_NOFOLLOW'], expect: 'ok' },
  { name: 'O_NOFOLLOW with trailing slash follows', setup: [dir(), ['symlink', 'd', 'l']], op: ['open', 'l/', 'O_RDONLY|O_NOFOLLOW'], expect: 'ok' },
  { name: '40 symlinks in a row resolve', setup: chain(40), op: ['readfile', 'l1'], expect: v('end') },
  { name: '41 symlinks in a row are too many', setup: chain(41), op: ['readfile', 'l1'], expect: 'ELOOP' },

  // ------------------------------------------------------------ ENAMETOOLONG
  { name: 'create a 256-byte name', op: ['open', long, 'O_WRONLY|O_CREAT', 0o644], expect: 'ENAMETOOLONG' },
  { name: 'mkdir a 256-byte name', op: ['mkdir', long, 0o755], expect: 'ENAMETOOLONG' },
  { name: 'stat a 256-byte name', op: ['stat', long], expect: 'ENAMETOOLONG' },
  { name: 'unlink a 256-byte name', op: ['unlink', long], expect: 'ENAMETOOLONG' },
  { name: 'a 255-byte name is fine', op: ['open', max, 'O_WRONLY|O_CREAT', 0o644], expect: 'ok' },
  { name: 'a 256-byte UTF-8 name (128 two-byte chars)', op: ['mkdir', 'é'.repeat(128), 0o755], expect: 'ENAMETOOLONG' },
  { name: 'a path of 4096 bytes', op: ['stat', 'a/'.repeat(2048)], expect: 'ENAMETOOLONG' },
  { name: 'a symlink target of 4096 bytes', op: ['symlink', 'x'.repeat(4096), 'l'], expect: 'ENAMETOOLONG' },
  { name: 'a symlink target of 4095 bytes', op: ['symlink', 'x'.repeat(4095), 'l'], expect: 'ok' },

  // ------------------------------------------------------------ EBADF
  { name: 'write to O_RDONLY fd', setup: [file(), ['open', 'f', 'O_RDONLY']], op: ['write', 'fd', 'x'], expect: 'EBADF' },
  { name: 'read from O_WRONLY fd', setup: [file(), ['open', 'f', 'O_WRONLY']], op: ['read', 'fd', 10], expect: 'EBADF' },
  { name: 'close twice', setup: [file(), ['open', 'f', 'O_RDONLY'], ['close', 'fd']], op: ['close', 'fd'], expect: 'EBADF' },
  { name: 'read a closed fd', setup: [file(), ['open', 'f', 'O_RDONLY'], ['close', 'fd']], op: ['read', 'fd', 1], expect: 'EBADF' },
  { name: 'fstat a closed fd', setup: [file(), ['open', 'f', 'O_RDONLY'], ['close', 'fd']], op: ['fstat', 'fd'], expect: 'EBADF' },
  { name: 'dup a closed fd', setup: [file(), ['open', 'f', 'O_RDONLY'], ['close', 'fd']], op: ['dup', 'fd', 'fd2'], expect: 'EBADF' },
  { name: 'lseek a closed fd', setup: [file(), ['open', 'f', 'O_RDONLY'], ['close', 'fd']], op: ['lseek', 'fd', 0, 'SEEK_SET'], expect: 'EBADF' },
  { name: 'write to a pipe\'s read end', setup: [['pipe', 'r', 'w']], op: ['write', 'r', 'x'], expect: 'EBADF' },
  { name: 'read from a pipe\'s write end', setup: [['pipe', 'r', 'w']], op: ['read', 'w', 1], expect: 'EBADF' },

  // ------------------------------------------------------------ EINVAL
  { name: 'lseek to a negative offset', setup: [file(), ['open', 'f', 'O_RDONLY']], op: ['lseek', 'fd', -1, 'SEEK_SET'], expect: 'EINVAL' },
  { name: 'lseek before the start from SEEK_END', setup: [file(), ['open', 'f', 'O_RDONLY']], op: ['lseek', 'fd', -5, 'SEEK_END'], expect: 'EINVAL' },
  { name: 'lseek with a bad whence', setup: [file(), ['open', 'f', 'O_RDONLY']], op: ['lseek', 'fd', 0, 7], expect: 'EINVAL' },
  { name: 'rmdir .', op: ['rmdir', '.'], expect: 'EINVAL' },
  { name: 'rmdir d/.', setup: [dir()], op: ['rmdir', 'd/.'], expect: 'EINVAL' },
  { name: 'rename a dir into its own subdir', setup: [dir('a'), dir('a/b')], op: ['rename', 'a', 'a/b/c'], expect: 'EINVAL' },
  { name: 'rename a dir into itself', setup: [dir('a')], op: ['rename', 'a', 'a/c'], expect: 'EINVAL' },
  { name: 'readlink a regular file', setup: [file()], op: ['readlink', 'f'], expect: 'EINVAL' },
  { name: 'readlink a symlink with trailing slash', setup: [dir(), ['symlink', 'd', 'l']], op: ['readlink', 'l/'], expect: 'EINVAL' },
  { name: 'truncate to a negative length', setup: [file()], op: ['truncate', 'f', -1], expect: 'EINVAL' },
  { name: 'access with a bad mode', setup: [file()], op: ['access', 'f', 8], expect: 'EINVAL' },
  { name: 'O_CREAT|O_DIRECTORY', op: ['open', 'x', 'O_RDONLY|O_CREAT|O_DIRECTORY', 0o644], expect: 'EINVAL' },
  { name: 'ftruncate an O_RDONLY fd', setup: [file(), ['open', 'f', 'O_RDONLY']], op: ['ftruncate', 'fd', 0], expect: 'EINVAL' },
  { name: 'ftruncate a dir fd', setup: [dir(), ['open', 'd', 'O_RDONLY']], op: ['ftruncate', 'fd', 0], expect: 'EINVAL' },
  { name: 'truncate a fifo', setup: [['mkfifo', 'p', 0o644]], op: ['truncate', 'p', 0], expect: 'EINVAL' },
  { name: 'mknod with a bad type', op: ['mknod', 'x', 'S_IFMT', 0o644], expect: 'EINVAL' },

  // ------------------------------------------------------------ ESPIPE
  { name: 'lseek on a pipe', setup: [['pipe', 'r', 'w']], op: ['lseek', 'r', 0, 'SEEK_CUR'], expect: 'ESPIPE' },
  { name: 'lseek on a FIFO', setup: [['mkfifo', 'p', 0o644], ['open', 'p', 'O_RDWR']], op: ['lseek', 'fd', 0, 'SEEK_SET'], expect: 'ESPIPE' },

  // ------------------------------------------------------------ rename semantics
  {
    name: 'rename atomically replaces an existing file',
    setup: [file('a', 'A'), file('b', 'B')], op: ['rename', 'a', 'b'], expect: 'ok',
    after: [[['readfile', 'b'], v('A')], [['stat', 'a'], 'ENOENT']],
  },
  {
    name: 'rename keeps an open fd on the replaced file working',
    setup: [file('a', 'A'), file('b', 'B'), ['open', 'b', 'O_RDONLY']], op: ['rename', 'a', 'b'], expect: 'ok',
    after: [[['read', 'fd', 10], v('B')], [['fstat', 'fd'], v({ nlink: 0 })]],
  },
  {
    name: 'rename between hard links of one file is a no-op',
    setup: [file('a'), ['link', 'a', 'b']], op: ['rename', 'a', 'b'], expect: 'ok',
    after: [[['stat', 'a'], v({ nlink: 2 })], [['stat', 'b'], v({ nlink: 2 })]],
  },
  { name: 'rename a file onto itself', setup: [file()], op: ['rename', 'f', 'f'], expect: 'ok', after: [[['readfile', 'f'], v('data')]] },
  {
    name: 'rename a dir over an empty dir',
    setup: [dir('a'), file('a/f'), dir('b')], op: ['rename', 'a', 'b'], expect: 'ok',
    after: [[['readdir', 'b'], v(['f'])], [['stat', 'a'], 'ENOENT'], [['stat', '.'], v({ nlink: 3 })]],
  },
  {
    name: 'rename a dir between parents fixes link counts',
    setup: [dir('a'), dir('b'), dir('a/x')], op: ['rename', 'a/x', 'b/x'], expect: 'ok',
    after: [[['stat', 'a'], v({ nlink: 2 })], [['stat', 'b'], v({ nlink: 3 })], [['stat', 'b/x/..'], v({ nlink: 3 })]],
  },
  {
    name: 'rename replacing one of several hard links',
    setup: [file('a', 'new'), file('b', 'old'), ['link', 'b', 'c']], op: ['rename', 'a', 'b'], expect: 'ok',
    after: [[['stat', 'c'], v({ nlink: 1 })], [['readfile', 'c'], v('old')]],
  },
  { name: 'rename a dir with trailing slashes', setup: [dir()], op: ['rename', 'd/', 'e/'], expect: 'ok', after: [[['stat', 'e'], v({ type: 'dir' })]] },
  { name: 'rename a symlink renames the link', setup: [file(), ['symlink', 'f', 'l']], op: ['rename', 'l', 'm'], expect: 'ok', after: [[['readlink', 'm'], v('f')], [['readfile', 'f'], v('data')]] },

  // ------------------------------------------------------------ link counts, unlinked files
  {
    name: 'hard link count',
    setup: [file()], op: ['link', 'f', 'g'], expect: 'ok',
    after: [[['stat', 'f'], v({ nlink: 2 })], [['unlink', 'g'], 'ok'], [['stat', 'f'], v({ nlink: 1 })]],
  },
  { name: 'hard links share data', setup: [file('f', 'one'), ['link', 'f', 'g'], file('f', 'two')], op: ['readfile', 'g'], expect: v('two') },
  { name: 'a dir has 2 + subdirs links', setup: [dir(), dir('d/a'), dir('d/b'), file('d/f')], op: ['stat', 'd'], expect: v({ nlink: 4 }) },
  { name: 'rmdir drops the parent\'s link count', setup: [dir(), dir('d/a'), ['rmdir', 'd/a']], op: ['stat', 'd'], expect: v({ nlink: 2 }) },
  { name: 'hard link to a symlink does not follow it', setup: [file(), ['symlink', 'f', 'l']], op: ['link', 'l', 'l2'], expect: 'ok', after: [[['lstat', 'l2'], v({ type: 'symlink', nlink: 2 })]] },
  { name: 'unlink a symlink leaves the target', setup: [file(), ['symlink', 'f', 'l']], op: ['unlink', 'l'], expect: 'ok', after: [[['readfile', 'f'], v('data')]] },
  { name: 'unlinked open file is still readable', setup: [file('f', 'kept'), ['open', 'f', 'O_RDONLY'], ['unlink', 'f']], op: ['read', 'fd', 100], expect: v('kept') },
  { name: 'unlinked open file has nlink 0', setup: [file(), ['open', 'f', 'O_RDONLY'], ['unlink', 'f']], op: ['fstat', 'fd'], expect: v({ nlink: 0, size: 4 }) },
  {
    name: 'unlinked open file is still writable',
    setup: [['open', 'f', 'O_RDWR|O_CREAT', 0o644], ['unlink', 'f'], ['write', 'fd', 'ghost'], ['lseek', 'fd', 0, 'SEEK_SET']],
    op: ['read', 'fd', 100], expect: v('ghost'),
  },
  {
    name: 'unlinked file survives while a dup is open',
    setup: [file('f', 'dup'), ['open', 'f', 'O_RDONLY'], ['dup', 'fd', 'fd2'], ['unlink', 'f'], ['close', 'fd']],
    op: ['read', 'fd2', 10], expect: v('dup'),
  },

  // ------------------------------------------------------------ open flags, offsets, data
  {
    name: 'O_APPEND writes at the end', setup: [file('f', 'abc'), ['open', 'f', 'O_WRONLY|O_APPEND'], ['lseek', 'fd', 0, 'SEEK_SET']],
    op: ['write', 'fd', 'de'], expect: v(2), after: [[['readfile', 'f'], v('abcde')]],
  },
  { name: 'O_TRUNC empties the file', setup: [file('f', 'abc')], op: ['open', 'f', 'O_WRONLY|O_TRUNC'], expect: 'ok', after: [[['stat', 'f'], v({ size: 0 })]] },
  { name: 'O_CREAT without O_EXCL keeps existing data', setup: [file('f', 'abc')], op: ['open', 'f', 'O_RDWR|O_CREAT', 0o600], expect: 'ok', after: [[['stat', 'f'], v({ size: 3, perm: 0o644 })]] },
  { name: 'O_CREAT|O_EXCL on a new name', op: ['open', 'f', 'O_WRONLY|O_CREAT|O_EXCL', 0o644], expect: 'ok' },
  { name: 'umask applies to O_CREAT', op: ['open', 'f', 'O_WRONLY|O_CREAT', 0o666], expect: 'ok', after: [[['stat', 'f'], v({ type: 'file', perm: 0o644, size: 0 })]] },
  { name: 'umask applies to mkdir', op: ['mkdir', 'd', 0o777], expect: 'ok', after: [[['stat', 'd'], v({ type: 'dir', perm: 0o755, nlink: 2, size: 40 })]] },
  { name: 'mkfifo makes a FIFO', op: ['mkfifo', 'p', 0o666], expect: 'ok', after: [[['stat', 'p'], v({ type: 'fifo', perm: 0o644, size: 0 })]] },
  { name: 'mknod S_IFREG makes a file', op: ['mknod', 'r', 'S_IFREG', 0o600], expect: 'ok', after: [[['stat', 'r'], v({ type: 'file', perm: 0o600 })]] },
  {
    name: 'writing past EOF leaves a zero-filled gap',
    setup: [['open', 'f', 'O_RDWR|O_CREAT', 0o644], ['lseek', 'fd', 5, 'SEEK_SET']], op: ['write', 'fd', 'x'], expect: v(1),
    after: [[['stat', 'f'], v({ size: 6 })], [['readfile', 'f'], v('\0\0\0\0\0x')]],
  },
  { name: 'lseek SEEK_END', setup: [file('f', 'hello'), ['open', 'f', 'O_RDONLY']], op: ['lseek', 'fd', -2, 'SEEK_END'], expect: v(3), after: [[['read', 'fd', 10], v('lo')]] },
  { name: 'lseek past EOF is allowed', setup: [file('f', 'hello'), ['open', 'f', 'O_RDONLY']], op: ['lseek', 'fd', 100, 'SEEK_SET'], expect: v(100), after: [[['read', 'fd', 10], v('')]] },
  { name: 'lseek SEEK_CUR', setup: [file('f', 'hello'), ['open', 'f', 'O_RDONLY'], ['read', 'fd', 2]], op: ['lseek', 'fd', 1, 'SEEK_CUR'], expect: v(3) },
  { name: 'read at EOF returns nothing', setup: [file('f', 'ab'), ['open', 'f', 'O_RDONLY'], ['read', 'fd', 2]], op: ['read', 'fd', 10], expect: v('') },
  {
    name: 'dup shares the offset',
    setup: [['open', 'f', 'O_RDWR|O_CREAT', 0o644], ['write', 'fd', 'hello'], ['dup', 'fd', 'fd2'], ['lseek', 'fd2', 1, 'SEEK_SET']],
    op: ['read', 'fd', 10], expect: v('ello'),
  },
  { name: 'two opens have separate offsets', setup: [file('f', 'abc'), ['open', 'f', 'O_RDONLY', 0, 'a'], ['open', 'f', 'O_RDONLY', 0, 'b'], ['read', 'a', 2]], op: ['read', 'b', 10], expect: v('abc') },
  { name: 'truncate extends with zeros', setup: [file('f', 'ab')], op: ['truncate', 'f', 4], expect: 'ok', after: [[['readfile', 'f'], v('ab\0\0')]] },
  { name: 'truncate shrinks', setup: [file('f', 'abcdef')], op: ['truncate', 'f', 2], expect: 'ok', after: [[['readfile', 'f'], v('ab')]] },
  { name: 'ftruncate a writable fd', setup: [file('f', 'abcdef'), ['open', 'f', 'O_WRONLY']], op: ['ftruncate', 'fd', 1], expect: 'ok', after: [[['stat', 'f'], v({ size: 1 })]] },
  { name: 'pipe carries data', setup: [['pipe', 'r', 'w'], ['write', 'w', 'through']], op: ['read', 'r', 100], expect: v('through') },
  { name: 'explicit utimes as owner', setup: [file()], op: ['utimes', 'f', 1000, 2000], expect: 'ok', after: [[['stat', 'f'], v({ mtimeMs: 2000 })]] },
  { name: 'chmod changes permission bits', setup: [file()], op: ['chmod', 'f', 0o600], expect: 'ok', after: [[['stat', 'f'], v({ perm: 0o600 })]] },
  { name: 'chmod through a symlink changes the target', setup: [file(), ['symlink', 'f', 'l']], op: ['chmod', 'l', 0o640], expect: 'ok', after: [[['stat', 'f'], v({ perm: 0o640 })]] },
  { name: 'chown as root', setup: [file()], op: ['chown', 'f', 123, 456], expect: 'ok', after: [[['stat', 'f'], v({ uid: 123, gid: 456 })]] },
  { name: 'chown drops setuid', setup: [file(), ['chmod', 'f', 0o4755]], op: ['chown', 'f', 123, -1], expect: 'ok', after: [[['stat', 'f'], v({ perm: 0o755 })]] },

  // ------------------------------------------------------------ trailing slashes, ".", ".."
  { name: 'mkdir with trailing slash', op: ['mkdir', 'newdir/', 0o755], expect: 'ok', after: [[['stat', 'newdir'], v({ type: 'dir' })]] },
  { name: 'stat dir with trailing slash', setup: [dir()], op: ['stat', 'd/'], expect: v({ type: 'dir' }) },
  { name: 'lstat symlink-to-dir with trailing slash follows', setup: [dir(), ['symlink', 'd', 'l']], op: ['lstat', 'l/'], expect: v({ type: 'dir' }) },
  { name: 'rmdir with trailing slash', setup: [dir()], op: ['rmdir', 'd/'], expect: 'ok' },
  { name: 'rmdir with doubled slashes', setup: [dir()], op: ['rmdir', 'd//'], expect: 'ok' },
  { name: 'rename dir to new name with trailing slash', setup: [dir()], op: ['rename', 'd', 'e/'], expect: 'ok' },
  { name: 'open dir with trailing slash', setup: [dir()], op: ['open', 'd/', 'O_RDONLY'], expect: 'ok' },
  { name: 'dotdot walks up', setup: [dir(), file()], op: ['readfile', 'd/../f'], expect: v('data') },
  { name: 'dot components are skipped', setup: [dir(), file('d/f', 'x')], op: ['readfile', './d/./f'], expect: v('x') },
  { name: 'dotdot through a file fails', setup: [file()], op: ['stat', 'f/..'], expect: 'ENOTDIR' },
  { name: '/.. is /', op: ['stat', '/..'], expect: v({ type: 'dir' }) },
  { name: 'dotdot of a symlinked dir is the real parent', setup: [dir('a'), dir('a/b'), file('a/f', 'in-a'), ['symlink', 'a/b', 'l']], op: ['readfile', 'l/../f'], expect: v('in-a') },
  { name: 'getcwd after chdir', setup: [dir(), dir('d/e'), ['chdir', 'd/e']], op: ['getcwd'], expect: v('d/e') },
  { name: 'getcwd after chdir ..', setup: [dir(), dir('d/e'), ['chdir', 'd/e'], ['chdir', '..']], op: ['getcwd'], expect: v('d') },
  { name: 'getcwd after chdir through a symlink', setup: [dir(), ['symlink', 'd', 'l'], ['chdir', 'l']], op: ['getcwd'], expect: v('d') },
  { name: 'getcwd follows a renamed cwd', setup: [dir(), ['chdir', 'd'], ['rename', '../d', '../e']], op: ['getcwd'], expect: v('e') },
  { name: 'readdir lists entries', setup: [dir(), file('d/b'), file('d/a'), dir('d/c'), ['symlink', 'x', 'd/l']], op: ['readdir', 'd'], expect: v(['a', 'b', 'c', 'l']) },
  { name: 'readdir of .. includes the child', setup: [dir()], op: ['readdir', 'd/..'], expect: v(['d']) },
  { name: 'readdir after unlink', setup: [dir(), file('d/a'), file('d/b'), ['unlink', 'd/a']], op: ['readdir', 'd'], expect: v(['b']) },

  // ------------------------------------------------------------ symlinks
  { name: 'readlink returns the target text', setup: [['symlink', '../some/where', 'l']], op: ['readlink', 'l'], expect: v('../some/where') },
  { name: 'relative symlink resolves from the link\'s dir', setup: [dir(), file('d/f', 'inner'), file('f', 'outer'), ['symlink', 'f', 'd/l']], op: ['readfile', 'd/l'], expect: v('inner') },
  { name: 'symlink to a symlink', setup: [file(), ['symlink', 'f', 'l1'], ['symlink', 'l1', 'l2']], op: ['readfile', 'l2'], expect: v('data') },
  { name: 'symlink to a dir in a middle component', setup: [dir(), file('d/f', 'x'), ['symlink', 'd', 'l']], op: ['readfile', 'l/f'], expect: v('x') },
  { name: 'stat through a symlink gives the target', setup: [file(), ['symlink', 'f', 'l']], op: ['stat', 'l'], expect: v({ type: 'file', size: 4 }) },
  { name: 'symlink permissions are 0777', setup: [['symlink', 'f', 'l']], op: ['lstat', 'l'], expect: v({ perm: 0o777, size: 1 }) },
  { name: 'O_CREAT through a symlink to an existing file', setup: [file('f', 'abc'), ['symlink', 'f', 'l']], op: ['open', 'l', 'O_WRONLY|O_CREAT|O_APPEND', 0o644], expect: 'ok' },
];
