// hello: the smallest WASI command (the bench's spawn-to-exit program).
#include <stdio.h>

int main(void) {
  puts("hello, world");
  return 0;
}
