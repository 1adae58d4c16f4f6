// wasix: a WASIX program (it imports wasix_32v1.thread_id besides preview 1):
// prints its arguments, thread id and cwd, copies in.txt to out.txt in upper
// case, removes "gone", echoes stdin, exits 7.
#include <ctype.h>
#include <stdio.h>
#include <unistd.h>

__attribute__((import_module("wasix_32v1"), import_name("thread_id"))) int wasix_thread_id(unsigned *tid);

int main(int argc, char **argv) {
  unsigned tid = 0;
  int err = wasix_thread_id(&tid);
  char cwd[256];
  for (int i = 1; i < argc; i++) printf("arg %s\n", argv[i]);
  printf("thread_id: errno %d, tid %u, cwd %s\n", err, tid, getcwd(cwd, sizeof cwd) ? cwd : "?");
  FILE *in = fopen("in.txt", "r");
  FILE *out = fopen("out.txt", "w");
  if (!in || !out) {
    perror("wasix");
    return 1;
  }
  for (int c; (c = fgetc(in)) != EOF;) fputc(toupper(c), out);
  fclose(out);
  if (remove("gone") != 0) perror("wasix: gone");
  for (int c; (c = getchar()) != EOF;) putchar(c);
  return 7;
}
