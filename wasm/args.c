// args: print argc, each argument and then each environment variable, one a line.
#include <stdio.h>

extern char **environ;

int main(int argc, char **argv) {
  printf("argc=%d\n", argc);
  for (int i = 0; i < argc; i++) printf("argv[%d]=%s\n", i, argv[i]);
  for (char **e = environ; *e; e++) printf("env %s\n", *e);
  return 0;
}
