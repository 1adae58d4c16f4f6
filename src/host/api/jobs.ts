// vm.jobs: background jobs as handles, the same on every VM (AgentVM on Node
// and in a page, BrowserVM, MCP's job_* tools). The jobs themselves run in the
// kernel worker (worker/jobs.ts); this is the host's face.

import type { JobInfo, JobOutput, JobStartOptions, JobStatus } from '../worker/jobs.js';

export type { JobInfo, JobOutput, JobStartOptions, JobStatus };

export interface Jobs {
  /**
   * Run `cmd` with bash -c as the VM's user, in a session and process group of
   * its own, stdin /dev/null; stdout and stderr go to the job's log (the
   * newest `logBytes`, default 1 MiB). Returns its id. EAGAIN at the policy's
   * process limit.
   */
  start(cmd: string, opts?: JobStartOptions): Promise<number>;
  /**
   * Output written since `cursor` (default 0: all that is kept), decoded as
   * UTF-8, and the job's status; pass the returned `cursor` next time.
   * `dropped`: bytes lost to the log's bound since `cursor`.
   */
  output(id: number, cursor?: number): Promise<JobOutput>;
  /** Resolves when the job has finished, or after `timeoutMs` with `running: true`. */
  wait(id: number, opts?: { timeoutMs?: number }): Promise<JobStatus>;
  /** Signal (default SIGTERM; a name such as 'KILL' or a number) every process of the job's session. */
  kill(id: number, signal?: string | number): Promise<void>;
  /** The jobs; a finished one whose last output has been read is listed once more, then forgotten. */
  list(): Promise<JobInfo[]>;
}
