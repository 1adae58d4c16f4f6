// poll MS: wait up to MS ms for stdin; print "timeout", or "ready" and what came.
// poll hup: report the flags poll gives when the writer is gone.
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  struct pollfd p = {0, POLLIN, 0};
  int r = poll(&p, 1, argc > 1 ? atoi(argv[1]) : -1);
  if (r == 0) {
    puts("timeout");
    return 1;
  }
  char buf[256] = {0};
  ssize_t n = read(0, buf, sizeof buf - 1);
  printf("ready: %d in=%d hup=%d read=%zd '%s'\n", r, !!(p.revents & POLLIN), !!(p.revents & POLLHUP), n, buf);
  return 0;
}
