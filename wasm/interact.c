// interact: a prompt, then an answer to each line of stdin as soon as it arrives; "quit" or EOF ends.
#include <stdio.h>
#include <string.h>

int main(void) {
  char line[1024];
  fputs("> ", stdout);
  fflush(stdout);
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    if (!strcmp(line, "quit")) {
      puts("bye");
      return 0;
    }
    printf("you said: %s (%zu)\n> ", line, strlen(line));
    fflush(stdout);
  }
  puts("eof");
  return 3;
}
