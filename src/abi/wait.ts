// waitpid(2) options and the Linux wait-status encoding.

export const WNOHANG = 1;
export const WUNTRACED = 2;
export const WCONTINUED = 8;

export const exitStatus = (code: number): number => (code & 0xff) << 8;
export const signalStatus = (sig: number, core = false): number => (sig & 0x7f) | (core ? 0x80 : 0);
export const stoppedStatus = (sig: number): number => ((sig & 0xff) << 8) | 0x7f;
export const CONTINUED_STATUS = 0xffff;

export const WIFEXITED = (s: number): boolean => (s & 0x7f) === 0;
export const WEXITSTATUS = (s: number): number => (s >> 8) & 0xff;
export const WIFSIGNALED = (s: number): boolean => (s & 0x7f) !== 0 && (s & 0x7f) !== 0x7f;
export const WTERMSIG = (s: number): number => s & 0x7f;
export const WIFSTOPPED = (s: number): boolean => (s & 0xff) === 0x7f;
export const WSTOPSIG = (s: number): number => (s >> 8) & 0xff;
export const WIFCONTINUED = (s: number): boolean => s === CONTINUED_STATUS;

/** The status a shell reports in `$?`: the exit code, or 128 + the signal. */
export function shellStatus(s: number): number {
  if (WIFEXITED(s)) return WEXITSTATUS(s);
  if (WIFSIGNALED(s)) return 128 + WTERMSIG(s);
  if (WIFSTOPPED(s)) return 128 + WSTOPSIG(s);
  return 0;
}
