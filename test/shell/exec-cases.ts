// What one exec does when a command errs, as `bash -c` does it (decision 0007):
// each case's script with bash 5.2's stdout and status. The tests run every
// case as one exec through AgentVM, the CLI and MCP and compare; when the host
// has bash 5.2, `bashAgrees` checks the table against it too.

import { spawnSync } from 'node:child_process';

export interface ExecCase {
  name: string;
  script: string;
  stdout: string;
  status: number;
  /** Text bash prints on stderr (agentos-shell names itself differently: only this part is compared). */
  stderr?: string;
}

export const EXEC_CASES: ExecCase[] = [
  { name: '${X:?} stops the exec before the rm', script: ': "${DIR:?}"; echo rm -rf "$DIR"/*', stdout: '', status: 127, stderr: 'DIR: parameter null or not set' },
  { name: '${X?msg} stops the exec with its message', script: 'echo "${Y?custom message}"; echo after', stdout: '', status: 127, stderr: 'Y: custom message' },
  { name: 'set -u stops the exec', script: 'set -u; echo $nope; echo after', stdout: '', status: 127, stderr: 'nope: unbound variable' },
  { name: 'set -u in a function stops the exec', script: 'set -u; f() { echo $nope; echo in; }; f; echo after', stdout: '', status: 127 },
  { name: 'division by zero abandons the line, status 1', script: 'echo $((1/0)); echo after', stdout: '', status: 1, stderr: 'division by 0' },
  { name: 'division by zero: the next line runs', script: 'echo $((1/0)); echo same\necho next', stdout: 'next\n', status: 0 },
  { name: 'a readonly assignment abandons the line', script: 'readonly ro_k=1; ro_k=2; echo after', stdout: '', status: 1, stderr: 'ro_k: readonly variable' },
  { name: 'a bad substitution abandons the line', script: 'echo ${a b}; echo after', stdout: '', status: 1, stderr: 'bad substitution' },
  { name: '${X:?} in a subshell: status 1', script: '(: ${X:?}; echo in); echo st=$?', stdout: 'st=1\n', status: 0 },
  { name: 'set -u in a subshell: status 1', script: '(set -u; : $nope; echo in); echo st=$?', stdout: 'st=1\n', status: 0 },
  { name: 'division by zero in a subshell: status 1', script: '(echo $((1/0)); echo in); echo st=$?', stdout: 'st=1\n', status: 0 },
  { name: '${X:?} in $(...): status 1, the exec goes on', script: 'x=$(: ${X:?}; echo in); echo "after [$x] $?"', stdout: 'after [] 1\n', status: 0 },
  { name: 'set -e stops the exec', script: 'set -e; false; echo after', stdout: '', status: 1 },
  { name: 'set -eo pipefail stops the exec', script: 'set -eo pipefail; false | true; echo after', stdout: '', status: 1 },
  { name: 'a syntax error after a command that ran', script: 'echo a\nif', stdout: 'a\n', status: 2 },
  { name: 'a failed exec stops the exec', script: 'exec /nonexistent/prog; echo after', stdout: '', status: 127 },
  { name: 'the EXIT trap runs when the exec ends', script: 'trap "echo bye \\$?" EXIT; echo x', stdout: 'x\nbye 0\n', status: 0 },
  { name: 'the EXIT trap runs when an error stops the exec', script: 'trap "echo bye \\$?" EXIT; : ${X:?}; echo after', stdout: 'bye 127\n', status: 127 },
  { name: 'exit in the EXIT trap sets the status', script: 'trap "echo bye; exit 5" EXIT; true', stdout: 'bye\n', status: 5 },
  { name: 'bash -c by bare name runs a pipeline of a group (no -c: ENOENT)', script: 'cd /tmp && bash -c "set -eo pipefail; { echo a; } | cat"', stdout: 'a\n', status: 0, stderr: '' },
];

/** Options that a case turns on and the next case must not inherit (they carry over between execs). */
export const RESET = 'set +euo pipefail';

let hasBash: boolean | undefined;

/** bash 5.2's answer for `script` under `bash -c`, or null when the host has no bash 5.2. */
export function hostBash(script: string): { stdout: string; status: number } | null {
  hasBash ??= spawnSync('bash', ['-c', 'echo "${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}"'], { encoding: 'utf8' }).stdout?.trim() === '5.2';
  if (!hasBash) return null;
  const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', cwd: '/', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  return { stdout: r.stdout, status: r.status ?? -1 };
}
