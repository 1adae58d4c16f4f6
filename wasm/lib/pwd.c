// Linked into every agentOS WASI program: wasi-libc keeps its own working
// directory, starting at "/", and resolves relative paths against it. Start it
// where the process really is; the runtime makes PWD name the process's cwd.
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void agentos_start_in_pwd(void) {
  const char *pwd = getenv("PWD");
  if (pwd && pwd[0] == '/') chdir(pwd);
}
