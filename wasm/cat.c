// cat [FILE...]: copy files (or stdin, also for "-") to stdout with read/write.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int copy(int fd) {
  static char buf[65536]; // not on the stack: wasm-ld gives it 64 KiB
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) {
    for (ssize_t off = 0; off < n;) {
      ssize_t w = write(1, buf + off, n - off);
      if (w < 0) return -1;
      off += w;
    }
  }
  return n < 0 ? -1 : 0;
}

int main(int argc, char **argv) {
  int status = 0;
  if (argc < 2) return copy(0) ? 1 : 0;
  for (int i = 1; i < argc; i++) {
    int fd = strcmp(argv[i], "-") ? open(argv[i], O_RDONLY) : 0;
    if (fd < 0 || copy(fd) < 0) {
      fprintf(stderr, "cat: %s: %s\n", argv[i], strerror(errno));
      status = 1;
    }
    if (fd > 0) close(fd);
  }
  return status;
}
