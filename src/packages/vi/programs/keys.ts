// What the terminal sends, split into keys: printable characters and control
// bytes as themselves, escape sequences (arrows, paging, delete) by name.

const NAMED: Record<string, string> = {
  A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end',
  '1~': 'home', '4~': 'end', '7~': 'home', '8~': 'end', '3~': 'del', '5~': 'pgup', '6~': 'pgdn', '2~': 'ins',
};

/** Split input into keys; a lone ESC (not starting a CSI/SS3 sequence) is 'escape'. */
export function splitKeys(input: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < input.length; ) {
    const c = input[i];
    if (c === '\x1b') {
      const csi = input[i + 1] === '[' ? /^\[([0-9;]*)([A-Za-z~])/.exec(input.slice(i + 1, i + 16)) : null;
      const ss3 = input[i + 1] === 'O' ? /^O([A-DHF])/.exec(input.slice(i + 1, i + 3)) : null;
      const m = csi ?? ss3;
      if (m) {
        const body = m[2] === '~' ? `${m[1]}~` : csi ? m[2] : m[1];
        out.push(NAMED[body] ?? 'unknown');
        i += m[0].length + 1;
        continue;
      }
      out.push('escape');
      i++;
      continue;
    }
    // Astral characters stay whole.
    const cp = input.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    i += ch.length;
    out.push(ch === '\r' || ch === '\n' ? 'enter' : ch === '\x7f' || ch === '\b' ? 'backspace' : ch);
  }
  return out;
}
