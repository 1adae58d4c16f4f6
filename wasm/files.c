// files DIR: create, read, append, seek/tell, pread/pwrite, truncate, set times;
// then a relative path (which must land in the cwd). Prints one result a line.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char path[512];

static void slurp(const char *label, int fd, size_t n) {
  char buf[64] = {0};
  ssize_t got = read(fd, buf, n);
  printf("%s: %zd '%s'\n", label, got, buf);
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  snprintf(path, sizeof path, "%s/data.txt", argv[1]);

  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  printf("write: %zd\n", write(fd, "hello\n", 6));
  close(fd);

  fd = open(path, O_RDONLY);
  slurp("read", fd, 63);
  close(fd);

  fd = open(path, O_WRONLY | O_APPEND);
  lseek(fd, 0, SEEK_SET); // O_APPEND ignores the offset
  printf("append: %zd\n", write(fd, "world\n", 6));
  close(fd);

  struct stat st;
  stat(path, &st);
  printf("size: %lld regular: %d\n", (long long)st.st_size, S_ISREG(st.st_mode));

  fd = open(path, O_RDWR);
  printf("seek: %lld\n", (long long)lseek(fd, 6, SEEK_SET));
  slurp("at 6", fd, 5);
  printf("tell: %lld\n", (long long)lseek(fd, 0, SEEK_CUR));
  printf("from end: %lld\n", (long long)lseek(fd, -6, SEEK_END));
  printf("pwrite: %zd\n", pwrite(fd, "W", 1, 6));
  char buf[8] = {0};
  printf("pread: %zd '%s'\n", pread(fd, buf, 5, 6), buf);
  printf("tell after pread: %lld\n", (long long)lseek(fd, 0, SEEK_CUR));
  printf("bad seek: %lld %s\n", (long long)lseek(fd, -100, SEEK_SET), strerror(errno));
  ftruncate(fd, 5);
  fstat(fd, &st);
  printf("truncated: %lld\n", (long long)st.st_size);

  struct timespec ts[2] = {{1000000000, 0}, {1234567890, 0}};
  printf("futimens: %d\n", futimens(fd, ts));
  fstat(fd, &st);
  printf("times: %lld %lld\n", (long long)st.st_atim.tv_sec, (long long)st.st_mtim.tv_sec);
  struct timespec keep[2] = {{0, UTIME_OMIT}, {1500000000, 0}};
  utimensat(AT_FDCWD, path, keep, 0);
  stat(path, &st);
  printf("utimensat: %lld %lld\n", (long long)st.st_atim.tv_sec, (long long)st.st_mtim.tv_sec);
  close(fd);

  printf("read-only write: %zd %s\n", write(open(path, O_RDONLY), "x", 1), strerror(errno));
  printf("missing: %d %s\n", open("no/such/file", O_RDONLY), strerror(errno));
  printf("exclusive: %d %s\n", open(path, O_CREAT | O_EXCL | O_WRONLY, 0644), strerror(errno));

  char cwd[512];
  printf("cwd: %s\n", getcwd(cwd, sizeof cwd));
  FILE *f = fopen("relative.txt", "w");
  fputs("relative\n", f);
  fclose(f);
  return 0;
}
