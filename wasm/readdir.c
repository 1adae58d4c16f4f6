// readdir DIR: the directory's entries (without . and ..), sorted, each with its type.
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a + 2, *(char *const *)b + 2); // after the type letter
}

int main(int argc, char **argv) {
  DIR *d = opendir(argc > 1 ? argv[1] : ".");
  if (!d) {
    fprintf(stderr, "readdir: %s: %s\n", argv[1], strerror(errno));
    return 1;
  }
  char **names = NULL;
  size_t n = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char type = e->d_type == DT_DIR ? 'd' : e->d_type == DT_LNK ? 'l' : e->d_type == DT_REG ? 'f' : '?';
    names = realloc(names, (n + 1) * sizeof *names);
    names[n] = malloc(strlen(e->d_name) + 3);
    sprintf(names[n++], "%c %s", type, e->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof *names, by_name);
  for (size_t i = 0; i < n; i++) puts(names[i]);
  return 0;
}
