// exit N: return N from main. exit flush N: exit(N) with stdout still buffered.
// exit abort: abort() (a trap). exit raise SIG: proc_raise(SIG) (WASI's signal numbers).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// wasi-libc no longer declares proc_raise (its raise() is emulated in-process).
__attribute__((import_module("wasi_snapshot_preview1"), import_name("proc_raise")))
extern unsigned short wasi_proc_raise(unsigned char sig);

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "abort")) abort();
  if (argc > 2 && !strcmp(argv[1], "raise")) {
    printf("raise: %d\n", wasi_proc_raise((unsigned char)atoi(argv[2])));
    return 0;
  }
  if (argc > 2 && !strcmp(argv[1], "flush")) {
    printf("buffered, flushed by exit\n");
    exit(atoi(argv[2]));
  }
  return argc > 1 ? atoi(argv[1]) : 0;
}
