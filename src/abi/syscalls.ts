// The syscall numbers of the agentOS ABI. Order is the ABI: append, never reorder.

export const SYSCALLS = [
  // files
  'open', 'close', 'read', 'pread', 'write', 'pwrite', 'lseek', 'fstat', 'stat', 'lstat', 'getdents',
  'mkdir', 'mknod', 'symlink', 'readlink', 'link', 'unlink', 'rmdir', 'rename', 'chmod', 'fchmod',
  'chown', 'lchown', 'fchown', 'utimes', 'truncate', 'ftruncate', 'access', 'chdir', 'fchdir', 'getcwd',
  'dup', 'dup2', 'fcntl', 'pipe', 'statfs', 'umask', 'isatty', 'ioctl', 'poll', 'realpath',
  // processes
  'getpid', 'getppid', 'getpgid', 'setpgid', 'getsid', 'setsid', 'getuid', 'getgid', 'geteuid',
  'getegid', 'spawn', 'execve', 'exit', 'waitpid', 'kill', 'sigaction', 'sigtake', 'sigprocmask', 'alarm',
  'nanosleep', 'uname', 'sync', 'setuid', 'setgid', 'mount', 'software',
  'fsync', 'fdatasync', 'futimes', 'snapshot',
  // network (kernel/net/)
  'http',
  // files, appended
  'flock',
  // processes, appended
  'spawnp',
  // agents (kernel/agent/)
  'agent',
  // sockets (kernel/socket/)
  'socket', 'socketpair', 'bind', 'listen', 'accept', 'connect', 'sendto', 'recvfrom', 'shutdown', 'getsockname',
  'getpeername', 'setsockopt', 'getsockopt',
  // /aos (kernel/agent/aosctl.ts)
  'aosctl',
] as const;

export type SyscallName = (typeof SYSCALLS)[number];

export const SYSNO: Record<SyscallName, number> = Object.fromEntries(SYSCALLS.map((n, i) => [n, i])) as Record<
  SyscallName,
  number
>;
