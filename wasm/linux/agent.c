// The guest side of agentOS's `linux` runtime (src/runtimes/linux/): PID 1 once /init has set
// the guest up. One small static process for the guest's whole life: it reads the control port,
// starts each job with exactly one fork and one exec, pumps the job's stdout and stderr to their
// ports, passes stdin, signals and window sizes, reaps every orphan, and reports each job's exit
// status after its last output byte. Everything a job needed a shell for before (the clock, the
// 9p mount, cd, the environment) is a system call here: in the emulated guest every fork and exec
// of busybox costs 100-300 ms, a system call almost nothing.
//
// The ports (all raw, 8 bits):
//   ttyS0  control lines both ways. Host to guest: a letter and escaped fields separated by one
//          space (bytes outside '!'..'~' and the backslash are \ooo octal); an uppercase letter
//          starts a field, the same letter in lowercase continues it (long arguments come in pieces).
//            T<seconds>         set the clock
//            M<options>         mount agentOS's files (9p) at /aos unless mounted
//            B<source> <target> a bind mount, once with M
//            C<dir>             the job's cwd
//            A<arg>             an argv word      V<name=value>  an environment entry
//            Y<rows> <cols>     the job runs on ttyS1 as its terminal, this size
//            G<tag>             start the job; <tag> (the host's random token, a few hex digits)
//                               marks this job's lines back. A G that comes while a job still runs
//                               (the host gave up on it) ends that one first.
//            I<bytes>           the job's stdin   E  its end
//            K<signal number>   to every process but this one (kill -1)
//            Z<rows> <cols>     ttyS1's new size (the kernel sends SIGWINCH to its foreground group)
//            F                  zero the free memory (the build, before it saves the state)
//          Guest to host: \002R (ready, once), \002X<tag> <status> (the job ended, and nothing it
//          started is left: sent after every other process is SIGKILLed and reaped and the
//          ports drained), \002F (memory zeroed). A job is root and can write these lines itself;
//          it cannot know the next job's tag, which the agent reads only after it killed the job.
//   ttyS1  the job's stdout (a pipe to the job, or its terminal with Y)
//   ttyS2  the job's stderr
// Built with gcc -m32 -static -nostdlib (scripts/build-linux.mjs): no libc, raw i386 system calls.

typedef unsigned int u32;

enum {
  SYS_exit = 1, SYS_fork = 2, SYS_read = 3, SYS_write = 4, SYS_open = 5, SYS_close = 6, SYS_execve = 11,
  SYS_chdir = 12, SYS_getpid = 20, SYS_mount = 21, SYS_kill = 37, SYS_brk = 45, SYS_ioctl = 54, SYS_fcntl = 55, SYS_setpgid = 57, SYS_dup2 = 63, SYS_setsid = 66,
  SYS_settimeofday = 79, SYS_wait4 = 114, SYS_poll = 168, SYS_rt_sigprocmask = 175, SYS_signalfd4 = 327, SYS_pipe2 = 331,
};
enum { O_WRONLY = 1, O_RDWR = 2, O_NOCTTY = 0400, O_NONBLOCK = 04000, O_CLOEXEC = 02000000, F_SETFL = 4 };
enum { ENOENT = 2, EINTR = 4, ECHILD = 10, EAGAIN = 11, EACCES = 13, ENOEXEC = 8 };
enum { POLLIN = 1, POLLOUT = 4, POLLERR = 8, POLLHUP = 16 };
enum { TCGETS = 0x5401, TCSETS = 0x5402, TCSBRK = 0x5409, TIOCSCTTY = 0x540E, TIOCSPGRP = 0x5410, TIOCSWINSZ = 0x5414, MS_BIND = 4096 };
enum { SIGCHLD = 17, SIGTTIN = 21, SIGTTOU = 22, SIG_BLOCK = 0, SIG_SETMASK = 2, WNOHANG = 1 };
// termios flags (asm-generic/termbits.h, as i386 has them)
enum {
  IGNBRK = 1, BRKINT = 2, PARMRK = 010, ISTRIP = 040, INLCR = 0100, IGNCR = 0200, ICRNL = 0400, IXON = 02000, IMAXBEL = 020000,
  OPOST = 1, ONLCR = 4, CSIZE = 060, CS8 = 060, PARENB = 0400, CREAD = 0200,
  ISIG = 1, ICANON = 2, ECHO = 010, ECHOE = 020, ECHOK = 040, ECHONL = 0100, IEXTEN = 0100000, ECHOCTL = 01000, ECHOKE = 04000,
};
enum { VINTR, VQUIT, VERASE, VKILL, VEOF, VTIME, VMIN, VSWTC, VSTART, VSTOP, VSUSP, VEOL, VREPRINT, VDISCARD, VWERASE, VLNEXT, VEOL2, NCCS = 19 };

struct termios { u32 iflag, oflag, cflag, lflag; unsigned char line, cc[NCCS]; };
struct winsize { unsigned short rows, cols, x, y; };
struct pollfd { int fd; short events, revents; };
struct timeval { long sec, usec; };

static long sc(long n, long a, long b, long c, long d, long e) {
  long r;
  __asm__ volatile("int $0x80" : "=a"(r) : "a"(n), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e) : "memory");
  return r;
}
#define S0(n) sc(n, 0, 0, 0, 0, 0)
#define S1(n, a) sc(n, (long)(a), 0, 0, 0, 0)
#define S2(n, a, b) sc(n, (long)(a), (long)(b), 0, 0, 0)
#define S3(n, a, b, c) sc(n, (long)(a), (long)(b), (long)(c), 0, 0)
#define S4(n, a, b, c, d) sc(n, (long)(a), (long)(b), (long)(c), (long)(d), 0)
#define S5(n, a, b, c, d, e) sc(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e))

// What gcc may call for struct copies and initialisers.
void *memset(void *d, int c, unsigned long n) { char *p = d; while (n--) *p++ = (char)c; return d; }
void *memcpy(void *d, const void *s, unsigned long n) { char *p = d; const char *q = s; while (n--) *p++ = *q++; return d; }

static unsigned long slen(const char *s) { unsigned long n = 0; while (s[n]) n++; return n; }

static void write_all(int fd, const char *p, long n) {
  while (n > 0) {
    long w = S3(SYS_write, fd, p, n);
    if (w == -EINTR || w == -EAGAIN) continue;
    if (w <= 0) return;
    p += w;
    n -= w;
  }
}
static void say(int fd, const char *s) { write_all(fd, s, slen(s)); }

static char *utoa(unsigned long v, char *end) {
  *--end = 0;
  do *--end = (char)('0' + v % 10); while (v /= 10);
  return end;
}
static long atou(const char *s) {
  long v = 0;
  while (*s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0');
  return v;
}

static int ctl, out1, out2; // the three ports

// The job being collected or running: its words live in one arena.
static char arena[1 << 20];
static unsigned long used;
static char *argv[4096], *envp[4096];
static int argc, envc;
static char *cwd, *mountopts, *binds[32];
static int nbinds, ttyjob, mounted, tty_was_used;
static struct winsize size;

static int job;                        // its pid, 0 when none
static char tag[33], next_tag[33];    // the running job's tag; the one its G gave
static int status, exited;             // set when the job's process has ended
static int inw = -1, outr = -1, errr = -1; // our ends of its stdin, stdout and stderr pipes
static int stdin_end;                  // E came: close stdin once the buffered bytes are written
static char inbuf[1 << 22]; // stdin the job has not read yet; beyond this it is dropped
static unsigned long inoff, inlen; // written up to inoff, buffered up to inlen

// The field a control line's letter adds to (lowercase: appended to the last one).
static char *field(char **slot, const char *s, int more) {
  unsigned long n = slen(s), old = more && *slot ? slen(*slot) : 0;
  if (used + old + n + 1 > sizeof arena) return *slot; // too much: the rest is dropped
  char *p = arena + used;
  for (unsigned long i = 0; i < old; i++) p[i] = (*slot)[i];
  for (unsigned long i = 0; i <= n; i++) p[old + i] = s[i];
  used += old + n + 1;
  return *slot = p;
}

// Unescape a field in place; returns its length (a field may hold NUL only in I lines).
static long unescape(char *s, long n) {
  long o = 0;
  for (long i = 0; i < n; i++) {
    if (s[i] == '\\' && i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '3') {
      s[o++] = (char)(((s[i + 1] - '0') << 6) | ((s[i + 2] - '0') << 3) | (s[i + 3] - '0'));
      i += 3;
    } else s[o++] = s[i];
  }
  s[o] = 0;
  return o;
}

static void set_termios(int fd, int sane) {
  struct termios t;
  if (S3(SYS_ioctl, fd, TCGETS, &t) < 0) return;
  if (sane) {
    // stty sane, as the program would find a fresh terminal
    t.iflag = (t.iflag & ~(IGNBRK | INLCR | IGNCR | PARMRK | ISTRIP)) | BRKINT | ICRNL | IXON | IMAXBEL;
    t.oflag |= OPOST | ONLCR;
    t.cflag = (t.cflag & ~(CSIZE | PARENB)) | CS8 | CREAD;
    t.lflag |= ISIG | ICANON | IEXTEN | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE;
    t.lflag &= ~ECHONL;
    static const unsigned char cc[] = { [VINTR] = 3, [VQUIT] = 034, [VERASE] = 0177, [VKILL] = 025, [VEOF] = 4, [VTIME] = 0,
      [VMIN] = 1, [VSTART] = 021, [VSTOP] = 023, [VSUSP] = 032, [VREPRINT] = 022, [VDISCARD] = 017, [VWERASE] = 027, [VLNEXT] = 026 };
    for (unsigned i = 0; i < sizeof cc; i++) t.cc[i] = cc[i];
  } else {
    // raw, no echo: bytes unchanged both ways
    t.iflag &= ~(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
    t.oflag &= ~OPOST;
    t.lflag &= ~(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    t.cflag = (t.cflag & ~(CSIZE | PARENB)) | CS8 | CREAD;
    t.cc[VMIN] = 1;
    t.cc[VTIME] = 0;
  }
  S3(SYS_ioctl, fd, TCSETS, &t);
}

static int open_port(const char *path) {
  int fd = (int)S3(SYS_open, path, O_RDWR | O_NOCTTY | O_CLOEXEC, 0);
  set_termios(fd, 0);
  return fd;
}

static void reset_job(void) {
  used = 0;
  argc = envc = nbinds = ttyjob = 0;
  cwd = mountopts = 0;
}

static void fail(const char *what, const char *arg, int code) {
  say(2, "linux: ");
  say(2, what);
  if (arg) { say(2, arg); }
  say(2, "\n");
  S1(SYS_exit, code);
}

// In the child: its files, terminal, cwd, then the one exec.
static void child(int in, int out, int err) {
  unsigned long none[2] = { 0, 0 };
  if (ttyjob) {
    // ttyS1 is the agent's controlling terminal; the job gets it as its foreground group (SIGTTOU
    // is still blocked here, inherited). Not a session of its own: a session leader's exit hangs
    // its terminal up, which drops the output not yet sent and every other open file of it.
    long pid = S0(SYS_getpid);
    S2(SYS_setpgid, 0, 0);
    S3(SYS_ioctl, out1, TIOCSPGRP, &pid);
    set_termios(out1, 1);
    S3(SYS_ioctl, out1, TIOCSWINSZ, &size);
    S2(SYS_dup2, out1, 0);
    S2(SYS_dup2, out1, 1);
    S2(SYS_dup2, out1, 2);
  } else {
    S0(SYS_setsid);
    S2(SYS_dup2, in, 0);
    S2(SYS_dup2, out, 1);
    S2(SYS_dup2, err, 2);
  }
  S4(SYS_rt_sigprocmask, SIG_SETMASK, none, 0, 8);
  if (cwd && S1(SYS_chdir, cwd) < 0) fail("cd: can't cd to ", cwd, 1);
  argv[argc] = 0;
  envp[envc] = 0;
  const char *name = argv[0];
  // PATH search, as execvp: the job's own PATH
  const char *path = "/bin:/sbin";
  for (int i = 0; i < envc; i++) {
    if (envp[i][0] == 'P' && envp[i][1] == 'A' && envp[i][2] == 'T' && envp[i][3] == 'H' && envp[i][4] == '=') path = envp[i] + 5;
  }
  int denied = 0;
  for (const char *p = name; *p; p++) {
    if (*p == '/') {
      long r = S3(SYS_execve, name, argv, envp);
      if (r == -ENOEXEC) goto script;
      fail(name, r == -ENOENT ? ": not found" : ": cannot execute", r == -ENOENT ? 127 : 126);
    }
  }
  static char full[4096];
  while (*path) {
    unsigned long n = 0;
    while (path[n] && path[n] != ':') n++;
    unsigned long m = 0;
    for (unsigned long i = 0; i < n && m < 2000; i++) full[m++] = path[i];
    if (!n) full[m++] = '.';
    full[m++] = '/';
    for (const char *q = name; *q && m < 4090; q++) full[m++] = *q;
    full[m] = 0;
    long r = S3(SYS_execve, full, argv, envp);
    if (r == -ENOEXEC) { name = full; goto script; }
    if (r == -EACCES) denied = 1;
    path += n;
    if (*path == ':') path++;
  }
  fail(argv[0], denied ? ": cannot execute" : ": not found", denied ? 126 : 127);
script:
  // a file without #!: sh runs it, as execvp does
  argv[argc + 1] = 0;
  for (int i = argc; i > 0; i--) argv[i] = argv[i - 1];
  argv[1] = (char *)name;
  argv[0] = "sh";
  S3(SYS_execve, "/bin/sh", argv, envp);
  fail(name, ": cannot execute", 126);
}

// Nothing a job started outlives it: every process but this one is SIGKILLed and reaped (orphans
// are ours), then every byte already written to a port goes out (TCSBRK 1 is tcdrain), so what
// follows on the ports is ours alone. With no child left the kill is skipped (it costs ~25 ms
// a job); a process that is no child of ours (a kernel's usermode helper) dies by the host's K9,
// which the agent reads before the next job's G.
static void settle(void) {
  int st0;
  if (S4(SYS_wait4, -1, &st0, WNOHANG, 0) != -ECHILD) S2(SYS_kill, -1, 9);
  for (;;) {
    int st;
    long pid = S4(SYS_wait4, -1, &st, 0, 0);
    if (pid == -EINTR) continue;
    if (pid <= 0) break;
  }
  S3(SYS_ioctl, out1, TCSBRK, 1);
  S3(SYS_ioctl, out2, TCSBRK, 1);
}

static void finish(int code) {
  char num[16];
  if (inw >= 0) S1(SYS_close, inw);
  if (outr >= 0) S1(SYS_close, outr);
  if (errr >= 0) S1(SYS_close, errr);
  inw = outr = errr = -1;
  inoff = inlen = 0;
  settle();
  if (tty_was_used) {
    long self = 1;
    S3(SYS_ioctl, out1, TIOCSPGRP, &self); // the terminal is the agent's again
  }
  say(ctl, "\002X");
  say(ctl, tag);
  say(ctl, " ");
  say(ctl, utoa((unsigned long)code, num + sizeof num));
  say(ctl, "\n");
  job = 0;
}

static void start(void) {
  // A job still running (the host ended it on a line the job forged): it ends first, its status to its own tag.
  if (job) finish(137);
  for (int i = 0; i < (int)sizeof tag; i++) tag[i] = next_tag[i];
  if (mountopts && !mounted) {
    if (S5(SYS_mount, "host9p", "/aos", "9p", 0, mountopts) < 0) {
      say(out2, "linux: the guest could not mount agentOS's files\n");
      reset_job();
      finish(125);
      return;
    }
    mounted = 1;
    for (int i = 0; i < nbinds; i++) {
      char *src = binds[i], *dst = src;
      while (*dst && *dst != ' ') dst++;
      if (!*dst) continue;
      *dst++ = 0;
      S5(SYS_mount, src, dst, 0, MS_BIND, 0); // a source agentOS lacks: no bind
    }
  }
  // After a job that had ttyS1 as its terminal, the port is a raw byte pipe again.
  if (tty_was_used && !ttyjob) set_termios(out1, 0);
  tty_was_used = ttyjob;
  int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
  if (!ttyjob) {
    S2(SYS_pipe2, in, O_CLOEXEC);
    S2(SYS_pipe2, out, O_CLOEXEC);
    S2(SYS_pipe2, err, O_CLOEXEC);
  }
  exited = 0;
  long pid = S0(SYS_fork);
  if (pid == 0) child(in[0], out[1], err[1]);
  if (!ttyjob) {
    S1(SYS_close, in[0]);
    S1(SYS_close, out[1]);
    S1(SYS_close, err[1]);
    inw = in[1];
    S3(SYS_fcntl, inw, F_SETFL, O_NONBLOCK);
    outr = out[0];
    errr = err[0];
  }
  stdin_end = 0;
  inoff = inlen = 0;
  if (pid < 0) {
    reset_job();
    finish(126);
    return;
  }
  job = (int)pid;
  reset_job();
}

static void resize(char *f) {
  char *c = f;
  while (*c && *c != ' ') c++;
  size.rows = (unsigned short)atou(f);
  size.cols = (unsigned short)(*c ? atou(c + 1) : 0);
}

// Free memory full of boot-time garbage makes the saved state big: v86 leaves out only zero pages.
// The page cache goes first; then most of the free memory is taken as heap, which the kernel
// zero-fills as it is touched, and given back (a freed page is not cleared again). A margin stays
// free: PID 1 must never meet the OOM killer.
static void zero_free_memory(void) {
  static char info[4096];
  int fd = (int)S3(SYS_open, "/proc/sys/vm/drop_caches", O_WRONLY, 0);
  if (fd >= 0) { say(fd, "3\n"); S1(SYS_close, fd); }
  fd = (int)S3(SYS_open, "/proc/meminfo", 0, 0);
  long n = fd < 0 ? 0 : S3(SYS_read, fd, info, sizeof info - 1);
  if (fd >= 0) S1(SYS_close, fd);
  long kb = 0;
  for (long i = 0; i + 8 < n; i++) {
    if (info[i] == 'M' && info[i + 1] == 'e' && info[i + 2] == 'm' && info[i + 3] == 'F' && info[i + 7] == ':') {
      for (i += 8; info[i] == ' '; i++) {}
      kb = atou(info + i);
      break;
    }
  }
  long bytes = (kb - 12 * 1024) * 1024;
  if (bytes > 0) {
    char *base = (char *)S1(SYS_brk, 0), *top = (char *)S1(SYS_brk, base + bytes);
    for (volatile char *p = base; p < top; p += 4096) *p = 0;
    S1(SYS_brk, base);
  }
  say(ctl, "\002F\n");
}

static void line(char *l, long n) {
  char k = l[0], *f = l + 1;
  long len = unescape(f, n - 1);
  int more = k >= 'a' && k <= 'z';
  switch (more ? k - 32 : k) {
    case 'T': {
      struct timeval tv = { atou(f), 0 };
      S2(SYS_settimeofday, &tv, 0);
      break;
    }
    case 'M': field(&mountopts, f, more); break;
    case 'B':
      if (more ? nbinds > 0 : nbinds < 32) field(&binds[more ? nbinds - 1 : nbinds++], f, more);
      break;
    case 'C': field(&cwd, f, more); break;
    case 'A': if (!more && argc < 4095) argc++; if (argc) field(&argv[argc - 1], f, more); break;
    case 'V': if (!more && envc < 4095) envc++; if (envc) field(&envp[envc - 1], f, more); break;
    case 'Y': ttyjob = 1; resize(f); break;
    case 'G':
      if (argc) {
        int i = 0;
        for (; i < (int)sizeof next_tag - 1 && f[i] > ' '; i++) next_tag[i] = f[i];
        next_tag[i] = 0;
        start();
      }
      break;
    case 'I':
      if (inw >= 0) {
        for (long i = 0; i < len && inlen < sizeof inbuf; i++) inbuf[inlen++] = f[i];
      }
      break;
    case 'E': stdin_end = 1; break;
    case 'K': S2(SYS_kill, -1, atou(f)); break;
    case 'Z': resize(f); S3(SYS_ioctl, out1, TIOCSWINSZ, &size); break;
    case 'F': zero_free_memory(); break;
  }
}

static void pump(int *fd, int to) {
  static char buf[4096];
  long n = S3(SYS_read, *fd, buf, sizeof buf);
  if (n > 0) write_all(to, buf, n);
  else if (n != -EINTR && n != -EAGAIN) {
    S1(SYS_close, *fd);
    *fd = -1;
  }
}

static void reap(int sfd) {
  static char info[128 * 8];
  while (S3(SYS_read, sfd, info, sizeof info) > 0) {}
  for (;;) {
    int st;
    long pid = S4(SYS_wait4, -1, &st, WNOHANG, 0);
    if (pid <= 0) return;
    if (pid == job) {
      exited = 1;
      status = (st & 0x7f) ? 128 + (st & 0x7f) : (st >> 8) & 0xff;
    }
  }
}

void __attribute__((noreturn, used)) agent_main(void) {
  ctl = open_port("/dev/ttyS0");
  out1 = open_port("/dev/ttyS1");
  out2 = open_port("/dev/ttyS2");
  // A session whose terminal is ttyS1, so that a job there can be its foreground group; SIGTTOU
  // and SIGTTIN blocked: the agent takes the terminal back from the background.
  S0(SYS_setsid);
  S3(SYS_ioctl, out1, TIOCSCTTY, 0);
  unsigned long chld[2] = { 1ul << (SIGCHLD - 1), 0 };
  unsigned long mask[2] = { chld[0] | 1ul << (SIGTTIN - 1) | 1ul << (SIGTTOU - 1), 0 };
  S4(SYS_rt_sigprocmask, SIG_BLOCK, mask, 0, 8);
  int sfd = (int)S4(SYS_signalfd4, -1, chld, 8, O_NONBLOCK | O_CLOEXEC);
  static char buf[65536 + 4096];
  long have = 0;
  say(ctl, "\002R\n");
  for (;;) {
    struct pollfd p[5] = { { ctl, POLLIN, 0 }, { sfd, POLLIN, 0 }, { outr, POLLIN, 0 }, { errr, POLLIN, 0 }, { inlen ? inw : -1, POLLOUT, 0 } };
    if (S3(SYS_poll, p, 5, -1) < 0) continue;
    if (p[0].revents) {
      long n = S3(SYS_read, ctl, buf + have, sizeof buf - 1 - have);
      if (n > 0) {
        have += n;
        long from = 0;
        for (long i = 0; i < have; i++) {
          if (buf[i] != '\n') continue;
          if (i > from) line(buf + from, i - from);
          from = i + 1;
        }
        if (from == 0 && have == (long)sizeof buf - 1) have = 0; // a line too long for anything: dropped
        for (long i = from; i < have; i++) buf[i - from] = buf[i];
        have -= from;
      }
    }
    if (p[1].revents) reap(sfd);
    if (p[2].revents) pump(&outr, out1);
    if (p[3].revents) pump(&errr, out2);
    if (p[4].revents & POLLOUT) {
      long w = S3(SYS_write, inw, inbuf + inoff, inlen - inoff);
      if (w > 0) inoff += (unsigned long)w;
      else if (w != -EAGAIN && w != -EINTR) inoff = inlen; // the job closed its stdin
      if (inoff == inlen) inoff = inlen = 0;
    } else if (p[4].revents & (POLLERR | POLLHUP)) inoff = inlen = 0;
    if (stdin_end && !inlen && inw >= 0) {
      S1(SYS_close, inw);
      inw = -1;
    }
    // The job is over when its process has ended and nothing holds its output pipes any more.
    if (job && exited && outr < 0 && errr < 0) finish(status);
  }
}

// The entry point: the stack as the kernel left it; nothing here needs argv or the environment.
__asm__(".globl _start\n_start:\n xor %ebp, %ebp\n and $-16, %esp\n call agent_main\n");
