// random N: N bytes from getentropy (random_get), in hex.
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  size_t n = argc > 1 ? (size_t)atol(argv[1]) : 16;
  unsigned char *buf = malloc(n);
  for (size_t off = 0; off < n; off += 256) {
    size_t k = n - off < 256 ? n - off : 256;
    if (getentropy(buf + off, k)) return 1;
  }
  for (size_t i = 0; i < n; i++) printf("%02x", buf[i]);
  putchar('\n');
  return 0;
}
