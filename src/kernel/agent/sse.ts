// Server-sent events (the HTML standard's event stream format), as the model
// providers stream their replies: UTF-8 lines ended by CRLF, LF or CR; `field:
// value` lines (one leading space dropped); `:` lines are comments; a blank
// line ends an event, whose `data` lines are joined by LF. Chunks may split
// anything — a multi-byte character, a CRLF pair, a line — so the parser keeps
// the undecoded bytes, the unended line and the unended event across pushes.

export interface SseEvent {
  /** `message` when the stream names none. */
  event: string;
  data: string;
  id: string;
}

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private line = '';
  /** The last chunk ended in CR: an LF starting the next one belongs to it. */
  private afterCr = false;
  private started = false;
  private event = '';
  private data: string[] = [];
  private id = '';

  /** The events that `chunk` completes. */
  push(chunk: Uint8Array): SseEvent[] {
    return this.feed(this.decoder.decode(chunk, { stream: true }));
  }

  /** At EOF: a line or event left unended is dropped, as the standard says (the caller decides whether EOF came too soon). */
  end(): SseEvent[] {
    this.decoder.decode();
    this.line = '';
    this.data = [];
    this.event = '';
    return [];
  }

  private feed(text: string): SseEvent[] {
    if (text === '') return []; // the chunk was part of a character: a pending CR still waits for its LF
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const out: SseEvent[] = [];
    let i = 0;
    if (this.afterCr && text.startsWith('\n')) i = 1;
    this.afterCr = false;
    while (i < text.length) {
      const lf = text.indexOf('\n', i);
      const cr = text.indexOf('\r', i);
      const eol = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      if (eol < 0) {
        this.line += text.slice(i);
        break;
      }
      this.line += text.slice(i, eol);
      this.take(this.line, out);
      this.line = '';
      i = eol + 1;
      if (text[eol] === '\r') {
        if (i === text.length) this.afterCr = true;
        else if (text[i] === '\n') i++;
      }
    }
    return out;
  }

  private take(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0) out.push({ event: this.event || 'message', data: this.data.join('\n'), id: this.id });
      this.data = [];
      this.event = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'data') this.data.push(value);
    else if (name === 'event') this.event = value;
    else if (name === 'id' && !value.includes('\0')) this.id = value;
    // `retry` and unknown fields: nothing a model stream needs.
  }
}

/** The events of a body, in order, as its chunks arrive. */
export async function* sseEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const parser = new SseParser();
  for await (const chunk of body) yield* parser.push(chunk);
  parser.end();
}
