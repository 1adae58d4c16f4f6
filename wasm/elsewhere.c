// elsewhere [-w FILE | -d DIR | FILE]...: a program as any wasi-libc toolchain
// builds it (no lib/*.c: libc's own cwd stays "/"). -w writes "written\n" to
// FILE, -d makes DIR, anything else is printed (cat); each path as given,
// relative, with "..", or absolute. Errors: "PATH: message", exit status 1.
// link: plain
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int failed(const char *path) {
  printf("%s: %s\n", path, strerror(errno));
  return 1;
}

int main(int argc, char **argv) {
  int status = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-w") && i + 1 < argc) {
      FILE *f = fopen(argv[++i], "w");
      if (!f || fputs("written\n", f) < 0 || fclose(f)) status = failed(argv[i]);
    } else if (!strcmp(argv[i], "-d") && i + 1 < argc) {
      if (mkdir(argv[++i], 0777)) status = failed(argv[i]);
    } else {
      FILE *f = fopen(argv[i], "r");
      if (!f) {
        status = failed(argv[i]);
        continue;
      }
      char buf[256];
      size_t n;
      while ((n = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, n, stdout);
      fclose(f);
    }
  }
  return status;
}
