// git's C-style quoting of path names (core.quotePath): a name with a
// quote, backslash, control character or (by default) any byte ≥ 0x80 is
// printed in double quotes with escapes, the bytes of UTF-8 in octal.

const enc = new TextEncoder();
const ESC: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 34: '\\"', 92: '\\\\' };

export function needsQuote(s: string, quotePath = true, space = false): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x7f || (quotePath && c >= 0x80) || (space && c === 0x20)) return true;
  }
  return false;
}

/** The quoted body (without the surrounding quotes). */
function escapeBody(s: string, quotePath: boolean): string {
  let out = '';
  for (const b of enc.encode(s)) {
    if (b in ESC) out += ESC[b];
    else if (b < 0x20 || b === 0x7f || (quotePath && b >= 0x80)) out += '\\' + b.toString(8).padStart(3, '0');
    else out += String.fromCharCode(b);
  }
  // bytes ≥ 0x80 left as they are must come back as UTF-8
  return quotePath ? out : new TextDecoder().decode(Uint8Array.from(out, (c) => c.charCodeAt(0)));
}

/** A path as git prints it: as is, or in quotes with escapes (`space`: a space needs quotes too, as in short status). */
export function quotePath(s: string, quotePath = true, space = false): string {
  return needsQuote(s, quotePath, space) ? `"${escapeBody(s, quotePath)}"` : s;
}

/** `prefix + path` quoted as one string (`"a/\303\251"`), as diff headers do. */
export function quotePrefixed(prefix: string, s: string, quotePath = true): string {
  return needsQuote(s, quotePath) ? `"${escapeBody(prefix + s, quotePath)}"` : prefix + s;
}
