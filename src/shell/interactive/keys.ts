// Keystrokes as a terminal sends them (xterm and VT100 sequences), decoded
// into key names for the line editor: 'x' for a character, 'C-a', 'M-b',
// 'up', 'home', 'delete', ...

const CSI_KEYS: Record<string, string> = {
  A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end',
  '1~': 'home', '7~': 'home', '4~': 'end', '8~': 'end', '3~': 'delete', '2~': 'insert', '5~': 'pageup', '6~': 'pagedown',
  '1;5C': 'M-f', '1;5D': 'M-b', '1;3C': 'M-f', '1;3D': 'M-b', '200~': 'paste-start', '201~': 'paste-end',
};

export interface Key {
  name: string;
  /** Bytes consumed from the input. */
  len: number;
}

/**
 * The key at the start of `s` (already UTF-8 decoded), or null when `s` ends
 * inside an escape sequence and more input is needed.
 */
export function nextKey(s: string, more: boolean): Key | null {
  const c = s[0];
  const code = c.charCodeAt(0);
  if (c !== '\x1b') {
    if (code === 0x0d || code === 0x0a) return { name: 'enter', len: 1 };
    if (code === 0x7f || code === 0x08) return { name: 'backspace', len: 1 };
    if (code === 0x09) return { name: 'tab', len: 1 };
    if (code < 0x20) return { name: 'C-' + String.fromCharCode(code + 0x60), len: 1 };
    const cp = s.codePointAt(0)!;
    return { name: String.fromCodePoint(cp), len: cp > 0xffff ? 2 : 1 };
  }
  if (s.length === 1) return more ? null : { name: 'escape', len: 1 };
  const second = s[1];
  if (second === '[' || second === 'O') {
    const m = /^[\d;]*[~A-Za-z]/.exec(s.slice(2));
    if (!m) return more && s.length < 16 ? null : { name: 'escape', len: 1 };
    const name = CSI_KEYS[m[0]] ?? CSI_KEYS[m[0].replace(/^1;\d/, '')] ?? 'unknown';
    return { name, len: 2 + m[0].length };
  }
  if (second === '\x7f' || second === '\x08') return { name: 'M-backspace', len: 2 };
  return { name: 'M-' + second, len: 2 };
}
