// wasixnet: a WASIX program that tries the network (issue 9's "WASIX sockets"
// attack): opens an IPv4 stream socket and, if that works, connects it to
// 127.0.0.1:PORT (argv[1]) and sends a line. Prints each step's errno.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((import_module("wasix_32v1"), import_name("sock_open"))) int wasix_sock_open(int af, int type, int proto, int *fd);
__attribute__((import_module("wasix_32v1"), import_name("sock_connect"))) int wasix_sock_connect(int fd, const void *addr);
__attribute__((import_module("wasix_32v1"), import_name("sock_send"))) int wasix_sock_send(int fd, const void *iovs, int niovs, int flags, int *sent);

int main(int argc, char **argv) {
  int port = argc > 1 ? atoi(argv[1]) : 80;
  int fd = -1;
  int err = wasix_sock_open(1 /* inet4 */, 1 /* stream */, 0, &fd);
  printf("sock_open: errno %d\n", err);
  if (err) return 1;
  // __wasi_addr_port_t: the family tag, then the port (big-endian) and the address.
  unsigned char addr[20] = {0};
  addr[0] = 1;
  addr[2] = (unsigned char)(port >> 8);
  addr[3] = (unsigned char)port;
  addr[4] = 127, addr[7] = 1;
  err = wasix_sock_connect(fd, addr);
  printf("sock_connect: errno %d\n", err);
  if (err) return 2;
  const char *line = "from wasix\n";
  struct { const void *buf; unsigned len; } iov = { line, (unsigned)strlen(line) };
  int sent = 0;
  err = wasix_sock_send(fd, &iov, 1, 0, &sent);
  printf("sock_send: errno %d, sent %d\n", err, sent);
  return err ? 3 : 0;
}
