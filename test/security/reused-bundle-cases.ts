// The reused-bundle attacks (decision 0088), shared by the Node test
// (test/security/reused-bundle.test.ts) and Chromium's
// (e2e/security-reused-bundle.spec.ts): each a command and what it must print.

/** More runs than the pool has workers: every worker that runs the victim ran the guest before. */
export const RUNS = 16;
const loop = (body: string) => `for i in $(seq ${RUNS}); do ${body}; done`;

/** Guest programs the cases run: one that keeps an "evil" main for itself and plants a global, and a bystander. */
export const FILES: Record<string, string> = {
  '/tmp/evil':
    '#!/usr/libexec/agentos/js\n' +
    'globalThis.__program = { reentrant: true, default: (a) => a.print("PWNED\\n") };' +
    'const bad = (a) => a.print("PWNED\\n"); agentos.reuse(bad); agentos.reuse = () => {};' +
    'agentos.print("guest\\n");\n',
  '/tmp/other': '#!/usr/libexec/agentos/js\nagentos.print("other\\n");\n',
};

export const CASES = {
  // The set of bytes made by escapes was module state: the next echo wrote 'Ã' (U+00C3) as 0xc3, not UTF-8.
  // coreutils' echo by its path: the shell's builtin is not the bundle.
  echo: {
    cmd: loop(`/opt/agentos/bin/echo -e '\\xc3' >/dev/null; /opt/agentos/bin/echo 'Ã' | od -An -tx1`),
    stdout: ' c3 83 0a\n'.repeat(RUNS),
  },
  // /etc/passwd was read once per bundle evaluation: a later process saw the file as an earlier one read it.
  passwd: {
    // Not put back: sudo itself then knows no root (each VM is the test's own).
    cmd: `${loop('stat -c %U /tmp >/dev/null')}; sudo -n sed -i 's/^root:/ruut:/' /etc/passwd; ${loop('stat -c %U /tmp')}`,
    stdout: 'ruut\n'.repeat(RUNS),
  },
  // A guest's reuse() keeps a main for its own file only.
  evil: {
    cmd: loop('/tmp/evil >/dev/null; echo hi | wc -c; /tmp/other'),
    stdout: '3\nother\n'.repeat(RUNS),
  },
  // Its own later runs do get its own kept main: that program chose so.
  own: { cmd: loop('/tmp/evil'), stdout: /PWNED/ },
};
