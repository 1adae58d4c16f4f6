// readline.emitKeypressEvents: a stream's input decoded into 'keypress'
// events (str, { sequence, name, ctrl, meta, shift, code }) as Node names
// keys: letters and digits, return/enter/tab/backspace/space/escape, Ctrl-
// letters, Meta (ESC-prefixed) keys and the CSI/SS3 sequences of arrows,
// Home/End, Insert/Delete, Page Up/Down and F1–F12 with their modifiers.

import type { Readable } from './stream.js';

export interface Key { sequence: string; name?: string; ctrl: boolean; meta: boolean; shift: boolean; code?: string }

const CODES: Record<string, string> = {
  '[A': 'up', '[B': 'down', '[C': 'right', '[D': 'left', '[E': 'clear', '[F': 'end', '[H': 'home',
  OA: 'up', OB: 'down', OC: 'right', OD: 'left', OE: 'clear', OF: 'end', OH: 'home',
  OP: 'f1', OQ: 'f2', OR: 'f3', OS: 'f4', '[P': 'f1', '[Q': 'f2', '[R': 'f3', '[S': 'f4',
  '[1~': 'home', '[2~': 'insert', '[3~': 'delete', '[4~': 'end', '[5~': 'pageup', '[6~': 'pagedown', '[7~': 'home', '[8~': 'end',
  '[11~': 'f1', '[12~': 'f2', '[13~': 'f3', '[14~': 'f4', '[15~': 'f5', '[17~': 'f6', '[18~': 'f7', '[19~': 'f8',
  '[20~': 'f9', '[21~': 'f10', '[23~': 'f11', '[24~': 'f12', '[Z': 'tab',
};

/** Split input into keys: [sequence, key, whether it began with ESC]. */
export function parseKeys(s: string): [string, Key, boolean][] {
  const out: [string, Key, boolean][] = [];
  for (let i = 0; i < s.length; ) {
    const start = i;
    let ch = s[i++];
    const key: Key = { sequence: ch, name: undefined, ctrl: false, meta: false, shift: false };
    let escaped = false;
    if (ch === '\x1b' && i < s.length) {
      escaped = true;
      ch = s[i++];
      if (ch === '\x1b' && i < s.length) ch = s[i++];
    }
    if (escaped && (ch === '[' || ch === 'O') && i <= s.length) {
      // CSI / SS3: optional digits and ';' modifiers, then a final character.
      let j = i;
      while (j < s.length && /[0-9;]/.test(s[j])) j++;
      if (j < s.length) {
        const params = s.slice(i, j);
        const fin = s[j];
        i = j + 1;
        const [num, mod] = params.split(';');
        const code = `${ch}${fin === '~' ? `${num}~` : num && !mod ? `${num}${fin}` : fin}`;
        const m = Number(mod ?? 1) - 1;
        Object.assign(key, { code, name: CODES[code], ctrl: !!(m & 4), meta: !!(m & 10), shift: !!(m & 1) || code === '[Z' });
        key.sequence = s.slice(start, i);
        out.push([key.sequence, key, true]);
        continue;
      }
    }
    if (ch === '\r') key.name = 'return';
    else if (ch === '\n') key.name = 'enter';
    else if (ch === '\t') key.name = 'tab';
    else if (ch === '\b' || ch === '\x7f') { key.name = 'backspace'; key.meta = escaped; }
    else if (ch === '\x1b') { key.name = 'escape'; key.meta = escaped; }
    else if (ch === ' ') { key.name = 'space'; key.meta = escaped; }
    else if (!escaped && ch <= '\x1a') { key.name = String.fromCharCode(ch.charCodeAt(0) + 96); key.ctrl = true; }
    else if (/^[0-9A-Za-z]$/.test(ch)) { key.name = ch.toLowerCase(); key.shift = /^[A-Z]$/.test(ch); key.meta = escaped; }
    else if (escaped) { key.name = ch.length ? undefined : 'escape'; key.meta = true; }
    key.sequence = s.slice(start, i);
    out.push([key.sequence, key, escaped]);
  }
  return out;
}

const ATTACHED = Symbol('keypress');

export function emitKeypressEvents(stream: Readable): void {
  const st = stream as Readable & { [ATTACHED]?: boolean };
  if (st[ATTACHED]) return;
  st[ATTACHED] = true;
  const dec = new TextDecoder();
  const onData = (b: unknown) => {
    const s = typeof b === 'string' ? b : dec.decode(b as Uint8Array, { stream: true });
    // As Node: a named key carries its text unless it was an escape sequence; unnamed, only single characters are emitted.
    for (const [str, key, escaped] of parseKeys(s)) {
      if (key.name !== undefined) stream.emit('keypress', escaped ? undefined : str, key);
      else if (str.length === 1) stream.emit('keypress', str, key);
    }
  };
  // Like Node: input is read only once someone listens for keys.
  const hook = (name: unknown) => {
    if (name !== 'keypress') return;
    stream.removeListener('newListener', hook);
    stream.on('data', onData);
  };
  if (stream.listenerCount('keypress') > 0) stream.on('data', onData);
  else stream.on('newListener', hook);
}
