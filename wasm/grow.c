// grow: allocate 16 MiB blocks until malloc fails, then say how much it got
// (the kernel caps a process's memory; without the cap this would reach 4 GiB).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  size_t mib = 0;
  for (;;) {
    // Touch each block through a volatile pointer: the compiler may not elide the allocation.
    char *volatile block = malloc(16 << 20);
    if (!block) break;
    block[0] = 1;
    mib += 16;
  }
  printf("%zu MiB\n", mib);
  return 0;
}
