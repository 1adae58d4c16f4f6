// Linked into every agentOS WASI program: wasi-libc keeps its own working
// directory, starting at "/", and resolves relative paths against it. Start it
// where the process really is; the runtime makes PWD name the process's cwd.
// Then give absolute paths back to the preopen named "/": libc maps "/x" to
// the last preopen named "/" or ".", and the runtime's last is the cwd's "."
// (for programs built elsewhere, whose libc stays at "/").
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wasi/api.h>
#include <wasi/libc.h>

static void agentos_root_for_absolute_paths(void) {
  for (__wasi_fd_t fd = 3;; fd++) {
    __wasi_prestat_t st;
    if (__wasi_fd_prestat_get(fd, &st) != 0) return;
    char name[2];
    if (st.tag != __WASI_PREOPENTYPE_DIR || st.u.dir.pr_name_len != 1) continue;
    if (__wasi_fd_prestat_dir_name(fd, (uint8_t *)name, 1) != 0) return;
    if (name[0] == '/') {
      __wasilibc_register_preopened_fd(fd, "/");
      return;
    }
  }
}

__attribute__((constructor)) static void agentos_start_in_pwd(void) {
  const char *pwd = getenv("PWD");
  if (pwd && pwd[0] == '/') chdir(pwd);
  agentos_root_for_absolute_paths();
}
