// The `wasi_snapshot_preview1` import object: every preview-1 function, each
// returning WASI's errno (0 on success). Kernel errors come back translated;
// anything else (exit, a fault of the runtime) propagates out of the guest.

import { fdCalls } from './calls/fd.js';
import { pathCalls } from './calls/path.js';
import { pollCalls } from './calls/poll.js';
import { procCalls } from './calls/proc.js';
import { errnoOf } from './errno.js';
import type { WasiState } from './state.js';

export const WASI_MODULE = 'wasi_snapshot_preview1';

/** The whole of preview 1 (wasi_snapshot_preview1.witx), in its order. */
export const PREVIEW1_FUNCTIONS = [
  'args_get', 'args_sizes_get', 'environ_get', 'environ_sizes_get', 'clock_res_get', 'clock_time_get',
  'fd_advise', 'fd_allocate', 'fd_close', 'fd_datasync', 'fd_fdstat_get', 'fd_fdstat_set_flags',
  'fd_fdstat_set_rights', 'fd_filestat_get', 'fd_filestat_set_size', 'fd_filestat_set_times', 'fd_pread',
  'fd_prestat_get', 'fd_prestat_dir_name', 'fd_pwrite', 'fd_read', 'fd_readdir', 'fd_renumber', 'fd_seek',
  'fd_sync', 'fd_tell', 'fd_write', 'path_create_directory', 'path_filestat_get', 'path_filestat_set_times',
  'path_link', 'path_open', 'path_readlink', 'path_remove_directory', 'path_rename', 'path_symlink',
  'path_unlink_file', 'poll_oneoff', 'proc_exit', 'proc_raise', 'sched_yield', 'random_get', 'sock_accept',
  'sock_recv', 'sock_send', 'sock_shutdown',
] as const;

type Call = (...args: never[]) => void;
export type Imports = Record<string, (...args: unknown[]) => number>;

export function preview1(w: WasiState): Imports {
  // Typed by the list, so a function missing from the implementation does not compile.
  const calls: Record<(typeof PREVIEW1_FUNCTIONS)[number], Call> = {
    ...procCalls(w), ...fdCalls(w), ...pathCalls(w), ...pollCalls(w),
  };
  const out: Imports = {};
  for (const name of PREVIEW1_FUNCTIONS) {
    const f = calls[name] as (...args: unknown[]) => void;
    out[name] = (...args) => {
      try {
        f(...args);
        return 0;
      } catch (e) {
        const errno = errnoOf(e);
        if (errno === undefined) throw e;
        return errno;
      }
    };
  }
  return out;
}
