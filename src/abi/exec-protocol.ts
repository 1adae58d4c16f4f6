// The exec protocol between the host (host/worker/exec-shell.ts) and an exec
// shell (shell/exec-shell.ts): commands framed onto the shell's stdin, each
// ended by a sentinel carrying a fresh random token and the exit status.
//
// Frame (host → shell):   "\0AOS-EXEC <n>\n" + n bytes of JSON (ExecFrame)
// Sentinels (shell → host): stdout "\0AOS-END:<token>:<status>\n",
//                           stderr "\0AOS-END:<token>\n"
// Bytes before a sentinel are the command's output, exactly: the token is
// new each time, so output cannot fake the end of its command.

/** The argument that makes bash an exec shell (shell/main.ts). */
export const EXEC_SHELL_FLAG = '--agentos-exec-shell';

export const FRAME_MAGIC = '\0AOS-EXEC ';
export const END_MAGIC = '\0AOS-END:';

/** One command for the session shell. */
export interface ExecFrame {
  token: string;
  cmd: string;
  /** A file to read as the command's stdin (the shell unlinks it); absent: /dev/null. */
  stdin?: string;
  cwd?: string;
  env?: Record<string, string>;
}

const enc = new TextEncoder();

/** The frame's bytes: its header line, then its JSON. */
export function encodeFrame(f: ExecFrame): Uint8Array {
  const body = enc.encode(JSON.stringify(f));
  const head = enc.encode(`${FRAME_MAGIC}${body.length}\n`);
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}

/** The sentinel the shell writes to stdout after the command: it carries the status. */
export const stdoutEnd = (token: string, status: number): string => `${END_MAGIC}${token}:${status}\n`;

/** The sentinel the shell writes to stderr after the command. */
export const stderrEnd = (token: string): string => `${END_MAGIC}${token}\n`;

/** What the host looks for on stdout (the status and a newline follow) and on stderr (a newline follows). */
export const endMarkers = (token: string): { stdout: Uint8Array; stderr: Uint8Array } => ({
  stdout: enc.encode(`${END_MAGIC}${token}:`),
  stderr: enc.encode(`${END_MAGIC}${token}`),
});
