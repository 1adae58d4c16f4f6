// Byte helpers shared by the user library and the host.

/** Join chunks read one at a time into one array. */
export function concatBytes(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.byteLength;
  }
  return out;
}

/** Text as a byte string: its UTF-8 bytes, one char each (what HTTP heads carry, as fetch's ByteString). */
export function byteString(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return text;
  const b = new TextEncoder().encode(text);
  let s = '';
  for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
  return s;
}

/** A byte string's bytes; a char past 0xFF (which names no byte) makes it text, UTF-8 encoded. */
export function byteStringBytes(s: string): Uint8Array {
  return /[\u0100-\uffff]/.test(s) ? new TextEncoder().encode(s) : Uint8Array.from(s, (ch) => ch.charCodeAt(0));
}
