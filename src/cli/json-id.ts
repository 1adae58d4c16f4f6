// The top-level "id" of a JSON object read as a stream of bytes, without
// keeping the object: for answering a request too large to parse. Clients
// often write the id last (the MCP SDK does), so the whole line is scanned;
// the state is a few numbers and the id's own text (at most MAX_ID bytes).
// Structural characters are ASCII, so UTF-8 needs no decoding here.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MAX_ID = 256;

export class TopLevelId {
  /** The id once its value has ended: a string or a number; null while unknown (or not usable). */
  id: string | number | null = null;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1, the next string is a key. */
  private keyNext = false;
  /** The key being read at depth 1 (its first bytes), or null. */
  private key: number[] | null = null;
  private idKey = false;
  /** The id's value text while it is read, or null. */
  private value: number[] | null = null;
  private done = false;

  feed(bytes: Uint8Array): void {
    const n = bytes.length;
    for (let i = 0; i < n && !this.done; i++) {
      // Inside a string (most of a huge request) only a quote or a backslash matters: a tight loop to it.
      if (this.inString && !this.escaped && !this.key && !this.value) {
        while (i < n && bytes[i] !== QUOTE && bytes[i] !== BACKSLASH) i++;
        if (i === n) return;
      }
      const c = bytes[i];
      if (this.value && !(this.depth === 1 && !this.inString && (c === 0x2c || c === 0x7d))) {
        if (this.value.length >= MAX_ID) return this.stop(); // not a usable id
        this.value.push(c);
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.key) {
            this.idKey = this.key.length === 2 && this.key[0] === 0x69 && this.key[1] === 0x64; // "id"
            this.key = null;
          }
        } else if (this.key && this.key.length < 3) this.key.push(c);
        continue;
      }
      switch (c) {
        case QUOTE:
          this.inString = true;
          if (this.depth === 1 && this.keyNext) {
            this.key = [];
            this.keyNext = false;
          }
          break;
        case 0x3a: // :
          if (this.depth === 1 && this.idKey) {
            this.idKey = false;
            this.value = [];
          }
          break;
        case 0x2c: // ,
          if (this.depth === 1) {
            this.endValue();
            this.keyNext = true;
          }
          break;
        case 0x7b: // {
        case 0x5b: // [
          this.depth++;
          if (this.depth === 1) this.keyNext = c === 0x7b;
          break;
        case 0x7d: // }
        case 0x5d: // ]
          if (this.depth === 1) this.endValue();
          this.depth--;
          break;
      }
    }
  }

  private endValue(): void {
    if (!this.value) return;
    let v: unknown;
    try {
      v = JSON.parse(Buffer.from(this.value).toString('utf8'));
    } catch {
      v = null;
    }
    this.value = null;
    // A later "id" key would override this one in JSON.parse; keep reading.
    this.id = typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? v : null;
  }

  private stop(): void {
    this.value = null;
    this.id = null;
    this.done = true;
  }
}
