// The spawn syscall's request: what a process (user/sys.ts), the host
// (host/api/machine.ts, host/worker/exec-shell.ts) and the kernel (kernel.ts) agree a
// new process is made of. Workers cannot fork a JS heap, so this is how
// processes begin (posix_spawn).

export interface SpawnRequest {
  path: string;
  argv: string[];
  /** KEY=VALUE strings; absent: the caller's environment as the kernel knows it. */
  env?: string[];
  /** Absent: the caller's working directory. */
  cwd?: string;
  /** [childFd, parentFd] pairs. Absent: inherit every fd not marked close-on-exec. */
  fds?: [number, number][];
  /**
   * With fds: the child also inherits the caller's other fds not marked
   * close-on-exec, so fds act as dup2s made in a forked child (a shell's
   * pipeline stage): no dup2 and restore in the caller around the spawn.
   */
  inheritFds?: boolean;
  /** 0 = new group led by the child; n = join group n; absent = inherit. */
  pgid?: number;
  /**
   * With pgid: the child's group becomes the foreground group of the caller's
   * terminal before the child runs — what a job-control shell's child does
   * with tcsetpgrp before exec, so the program never starts in the background
   * (a tcsetattr there would stop it with SIGTTOU). Only a caller in the foreground may.
   */
  foreground?: boolean;
  setsid?: boolean;
  /** Signals (a bitmask, bit n = signal n) the child starts with at SIG_DFL even where the caller ignores them (posix_spawnattr_setsigdefault). */
  sigDefault?: number;
  /** With setsid: the child's fd that becomes its controlling terminal (TIOCSCTTY). */
  ctty?: number;
  /** Run the child as this user (and group): root only, like setuid before exec. */
  uid?: number;
  gid?: number;
  /** From the host only: an exec shell (host/worker/exec-shell.ts), whose CPU and wall clocks run per exec. */
  execShell?: boolean;
}
