// clock now: realtime seconds, monotonic and CPU clocks, resolutions.
// clock sleep MS: sleep (nanosleep = poll_oneoff on a clock) and print the time taken.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wasi/api.h>

static double ms(clockid_t c) {
  struct timespec t;
  clock_gettime(c, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  if (argc > 2 && !strcmp(argv[1], "sleep")) {
    long n = atol(argv[2]);
    double t0 = ms(CLOCK_MONOTONIC);
    struct timespec req = {n / 1000, (n % 1000) * 1000000L};
    int r = nanosleep(&req, NULL);
    printf("slept: %d %.0f\n", r, ms(CLOCK_MONOTONIC) - t0);
    return 0;
  }
  struct timespec res;
  clock_getres(CLOCK_MONOTONIC, &res);
  printf("realtime: %lld\n", (long long)time(NULL));
  double a = ms(CLOCK_MONOTONIC), b = ms(CLOCK_MONOTONIC);
  printf("monotonic: %d\n", b >= a && a > 0);
  __wasi_timestamp_t cpu = 0;
  printf("cputime: %d\n", __wasi_clock_time_get(__WASI_CLOCKID_PROCESS_CPUTIME_ID, 1, &cpu) == 0 && cpu > 0);
  printf("resolution ns: %ld\n", res.tv_nsec);
  printf("bad clock: %d\n", __wasi_clock_time_get(99, 1, &cpu) == __WASI_ERRNO_INVAL);
  return 0;
}
