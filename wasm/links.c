// links DIR: symlink/readlink, hard links, rename, mkdir/rmdir, unlink, with
// the errors each refuses with. Prints one result a line.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *dir;

static const char *at(const char *name) {
  static char bufs[4][512];
  static int i;
  char *b = bufs[i++ % 4];
  snprintf(b, 512, "%s/%s", dir, name);
  return b;
}

static void result(const char *what, int r) {
  if (r < 0) printf("%s: %s\n", what, strerror(errno));
  else printf("%s: ok\n", what);
}

static void put(const char *name, const char *text) {
  int fd = open(at(name), O_CREAT | O_WRONLY | O_TRUNC, 0644);
  write(fd, text, strlen(text));
  close(fd);
}

static void show(const char *name) {
  char buf[64] = {0};
  int fd = open(at(name), O_RDONLY);
  if (fd < 0) {
    printf("cat %s: %s\n", name, strerror(errno));
    return;
  }
  read(fd, buf, sizeof buf - 1);
  close(fd);
  printf("cat %s: %s\n", name, buf);
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  dir = argv[1];
  struct stat st;
  char buf[64] = {0};

  put("a", "A");
  result("symlink", symlink("a", at("s")));
  printf("readlink: %zd %s\n", readlink(at("s"), buf, sizeof buf), buf);
  lstat(at("s"), &st);
  printf("lstat is link: %d\n", S_ISLNK(st.st_mode));
  stat(at("s"), &st);
  printf("stat follows: %d size %lld\n", S_ISREG(st.st_mode), (long long)st.st_size);
  result("readlink on a file", (int)readlink(at("a"), buf, sizeof buf));

  result("link", link(at("a"), at("h")));
  stat(at("a"), &st);
  printf("nlink: %d\n", (int)st.st_nlink);
  result("rename", rename(at("a"), at("b")));
  show("a");
  show("b");
  show("h");
  show("s");
  put("c", "C");
  result("rename over", rename(at("b"), at("c")));
  show("c");

  result("mkdir", mkdir(at("d"), 0755));
  result("mkdir again", mkdir(at("d"), 0755));
  put("d/x", "X");
  result("rmdir non-empty", rmdir(at("d")));
  result("unlink a directory", unlink(at("d")));
  result("rename dir into itself", rename(at("d"), at("d/sub")));
  result("unlink", unlink(at("d/x")));
  result("rmdir", rmdir(at("d")));
  result("rmdir missing", rmdir(at("d")));
  result("unlink symlink", unlink(at("s")));
  result("symlink exists", symlink("x", at("c")));
  return 0;
}
