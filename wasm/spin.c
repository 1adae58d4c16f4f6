// spin: say so, then loop forever without a syscall (only signals that kill can stop it).
#include <stdio.h>

int main(void) {
  puts("spinning");
  fflush(stdout);
  for (volatile unsigned long n = 0;; n++) {
  }
}
