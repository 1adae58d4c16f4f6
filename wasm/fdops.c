// fdops DIR: the fd calls libc rarely makes: renumber, fcntl flags, fsync, fallocate, fadvise,
// isatty, rights, sched_yield and the socket calls (no fd is a socket).
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sched.h>
#include <wasi/api.h>
#include <wasi/libc.h>

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  char a[512], b[512];
  snprintf(a, sizeof a, "%s/one", argv[1]);
  snprintf(b, sizeof b, "%s/two", argv[1]);
  int fa = open(a, O_CREAT | O_RDWR | O_TRUNC, 0644);
  int fb = open(b, O_CREAT | O_RDWR | O_TRUNC, 0644);
  write(fa, "first", 5);
  write(fb, "second", 6);
  printf("renumber: %d\n", __wasilibc_fd_renumber(fa, fb));
  char buf[16] = {0};
  pread(fb, buf, sizeof buf - 1, 0);
  printf("after renumber: '%s'\n", buf);
  printf("old fd: %zd %s\n", write(fa, "x", 1), strerror(errno));

  printf("append before: %d\n", !!(fcntl(fb, F_GETFL) & O_APPEND));
  printf("setfl: %d\n", fcntl(fb, F_SETFL, O_APPEND));
  printf("append after: %d\n", !!(fcntl(fb, F_GETFL) & O_APPEND));
  lseek(fb, 0, SEEK_SET);
  write(fb, "!", 1);
  pread(fb, buf, sizeof buf - 1, 0);
  printf("appended: '%s'\n", buf);

  printf("fsync: %d fdatasync: %d\n", fsync(fb), fdatasync(fb));
  printf("fallocate: %d\n", posix_fallocate(fb, 0, 100));
  struct stat st;
  fstat(fb, &st);
  printf("size: %lld\n", (long long)st.st_size);
  printf("fadvise: %d\n", posix_fadvise(fb, 0, 0, POSIX_FADV_SEQUENTIAL));
  printf("isatty: %d %d\n", isatty(fb), isatty(1));

  __wasi_fdstat_t fst;
  if (__wasi_fd_fdstat_get(fb, &fst)) return 1;
  printf("drop seek: %d\n", __wasi_fd_fdstat_set_rights(fb, fst.fs_rights_base & ~__WASI_RIGHTS_FD_SEEK, 0));
  printf("seek without the right: %lld %s\n", (long long)lseek(fb, 1, SEEK_SET), strerror(errno));
  printf("regain seek: %d\n", __wasi_fd_fdstat_set_rights(fb, fst.fs_rights_base, 0) == __WASI_ERRNO_NOTCAPABLE);
  printf("sched_yield: %d\n", sched_yield());
  __wasi_fd_t sock;
  __wasi_size_t n;
  printf("sock_accept: %d\n", __wasi_sock_accept(1, 0, &sock) == __WASI_ERRNO_NOTSOCK);
  printf("sock_shutdown bad fd: %d\n", __wasi_sock_shutdown(99, __WASI_SDFLAGS_WR) == __WASI_ERRNO_BADF);
  __wasi_iovec_t iov = {(uint8_t *)buf, 1};
  __wasi_roflags_t ro;
  printf("sock_recv: %d\n", __wasi_sock_recv(0, &iov, 1, 0, &n, &ro) == __WASI_ERRNO_NOTSOCK);
  printf("close: %d close again: %d %s\n", close(fb), close(fb), strerror(errno));
  return 0;
}
