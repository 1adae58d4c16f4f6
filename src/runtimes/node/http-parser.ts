// An incremental HTTP/1.x message parser (RFC 9112) for the http module, both
// directions: feed it bytes as they arrive, it calls back with each message's
// head, its body pieces and its end. Bodies are framed by chunked transfer
// coding, Content-Length, or (responses only) the connection's end. Several
// messages on one connection (keep-alive, pipelining) parse one after another.
// It is strict where laxness would let two parties disagree on where a message
// ends (request smuggling): both Content-Length and chunked, conflicting
// lengths, bad chunk sizes and folded headers are errors. Heads are read as
// true latin1 (TextDecoder's 'latin1' is windows-1252 in browsers: a UTF-8
// ✓'s 0x93 became U+201C, and the request a 400).

import { latin1 } from '../../userland/lib/bytes.js';

export interface HttpHead {
  /** Requests. */
  method: string;
  url: string;
  /** Responses. */
  statusCode: number;
  statusMessage: string;
  versionMajor: number;
  versionMinor: number;
  /** Names and values alternating, as they came. */
  rawHeaders: string[];
  /** Whether the connection may carry another message after this one. */
  keepAlive: boolean;
  upgrade: boolean;
}

export interface ParserEvents {
  /** A message's head; answer true when it has no body whatever its headers say (a response to HEAD, 1xx, 204, 304). */
  head(h: HttpHead): boolean | void;
  body(chunk: Uint8Array): void;
  /** The message is complete (trailers, if any, in `rawTrailers`). */
  end(rawTrailers: string[]): void;
}

/** A message that is not HTTP: the code and message as Node's llhttp names them. */
export class HttpParseError extends Error {
  constructor(readonly code: string, reason: string, readonly bytesParsed = 0) {
    super(`Parse Error: ${reason}`);
  }
}

/** Node's default limit on a message head (--max-http-header-size). */
export const MAX_HEADER_SIZE = 16 * 1024;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

type State = 'head' | 'length' | 'size' | 'data' | 'data-end' | 'trailers' | 'eof' | 'closed';

export class HttpParser {
  private state: State = 'head';
  private pending = new Uint8Array(0);
  private remaining = 0;
  private trailers: string[] = [];
  private current: HttpHead | null = null;

  constructor(private kind: 'request' | 'response', private on: ParserEvents) {}

  /** Parse what arrived. Throws HttpParseError on a malformed message; the parser then ignores the rest. */
  execute(data: Uint8Array): void {
    let buf = data;
    if (this.pending.byteLength) {
      const joined = new Uint8Array(this.pending.byteLength + data.byteLength);
      joined.set(this.pending);
      joined.set(data, this.pending.byteLength);
      buf = joined;
      this.pending = new Uint8Array(0);
    }
    let at = 0;
    while (at < buf.byteLength) {
      const used = this.step(buf, at);
      if (used < 0) {
        // A line or head is incomplete: keep the rest for the next call.
        const rest = buf.subarray(at);
        const limit = this.state === 'head' || this.state === 'trailers' ? MAX_HEADER_SIZE : 1024;
        if (rest.byteLength > limit) {
          if (this.state === 'head' || this.state === 'trailers') this.fail('HPE_HEADER_OVERFLOW', 'Header overflow');
          this.fail('HPE_INVALID_CHUNK_SIZE', 'Invalid character in chunk size');
        }
        this.pending = rest.slice();
        return;
      }
      at += used;
    }
  }

  /** The connection ended: a body read until close is complete; anything else half-done is an error. */
  finish(): void {
    if (this.state === 'eof') {
      this.state = 'head';
      this.complete();
    } else if (this.state !== 'closed' && (this.state !== 'head' || this.pending.byteLength)) this.fail('HPE_INVALID_EOF_STATE', 'Invalid EOF state');
  }

  /** Consume from `at`; the number of bytes used, or -1 when more are needed. */
  private step(buf: Uint8Array, at: number): number {
    switch (this.state) {
      case 'head': {
        // Empty lines before a message are skipped (RFC 9112 §2.2).
        if (buf[at] === 13 || buf[at] === 10) {
          if (buf[at] === 10) return 1;
          return at + 1 < buf.byteLength ? (buf[at + 1] === 10 ? 2 : this.fail('HPE_LF_EXPECTED', 'Missing expected LF after header value')) : -1;
        }
        const end = headEnd(buf, at);
        if (!end) return -1;
        if (end[1] - at > MAX_HEADER_SIZE) this.fail('HPE_HEADER_OVERFLOW', 'Header overflow');
        this.startMessage(latin1(buf.subarray(at, end[0])));
        return end[1] - at;
      }
      case 'length': {
        const n = Math.min(this.remaining, buf.byteLength - at);
        this.on.body(buf.subarray(at, at + n));
        this.remaining -= n;
        if (this.remaining === 0) this.endMessage();
        return n;
      }
      case 'size': {
        const eol = lineEnd(buf, at);
        if (eol < 0) return -1;
        const line = latin1(buf.subarray(at, eol)).replace(/\r$/, '');
        const m = /^([0-9a-fA-F]{1,15})[\t ]*(;.*)?$/.exec(line);
        if (!m) this.fail('HPE_INVALID_CHUNK_SIZE', 'Invalid character in chunk size');
        this.remaining = parseInt(m![1], 16);
        this.state = this.remaining === 0 ? 'trailers' : 'data';
        return eol - at + 1;
      }
      case 'data': {
        const n = Math.min(this.remaining, buf.byteLength - at);
        this.on.body(buf.subarray(at, at + n));
        this.remaining -= n;
        if (this.remaining === 0) this.state = 'data-end';
        return n;
      }
      case 'data-end': {
        if (buf[at] === 10) { this.state = 'size'; return 1; }
        if (buf[at] !== 13) this.fail('HPE_STRICT', 'Expected LF after chunk data');
        if (at + 1 >= buf.byteLength) return -1;
        if (buf[at + 1] !== 10) this.fail('HPE_STRICT', 'Expected LF after chunk data');
        this.state = 'size';
        return 2;
      }
      case 'trailers': {
        const eol = lineEnd(buf, at);
        if (eol < 0) return -1;
        const line = latin1(buf.subarray(at, eol)).replace(/\r$/, '');
        if (line === '') this.endMessage();
        else {
          const [name, value] = this.field(line);
          this.trailers.push(name, value);
        }
        return eol - at + 1;
      }
      case 'eof':
        this.on.body(buf.subarray(at));
        return buf.byteLength - at;
      case 'closed':
        // After a message that ends the connection (an upgrade, Connection: close), bytes are not parsed.
        return buf.byteLength - at;
    }
  }

  private fail(code: string, reason: string): never {
    this.state = 'closed';
    throw new HttpParseError(code, reason);
  }

  private field(line: string): [string, string] {
    const colon = line.indexOf(':');
    if (line[0] === ' ' || line[0] === '\t') this.fail('HPE_INVALID_HEADER_TOKEN', 'Invalid header value char');
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1).replace(/^[\t ]+|[\t ]+$/g, '');
    if (colon <= 0 || !TOKEN.test(name)) this.fail('HPE_INVALID_HEADER_TOKEN', 'Invalid header token');
    if (!FIELD_VALUE.test(value)) this.fail('HPE_INVALID_HEADER_TOKEN', 'Invalid header value char');
    return [name, value];
  }

  private startMessage(text: string): void {
    const lines = text.split(/\r?\n/);
    const h: HttpHead = { method: '', url: '', statusCode: 0, statusMessage: '', versionMajor: 1, versionMinor: 1, rawHeaders: [], keepAlive: true, upgrade: false };
    const first = lines[0];
    if (this.kind === 'request') {
      const m = /^([^ ]+) ([^ ]+) HTTP\/(\d)\.(\d)$/.exec(first);
      if (!m) this.fail(TOKEN.test(first.split(' ')[0]) ? 'HPE_INVALID_VERSION' : 'HPE_INVALID_METHOD', TOKEN.test(first.split(' ')[0]) ? 'Invalid HTTP version' : 'Invalid method encountered');
      if (!TOKEN.test(m![1])) this.fail('HPE_INVALID_METHOD', 'Invalid method encountered');
      // eslint-disable-next-line no-control-regex -- a request target has no controls or spaces
      if (/[\x00-\x20\x7f]/.test(m![2])) this.fail('HPE_INVALID_URL', 'Invalid URL');
      [h.method, h.url, h.versionMajor, h.versionMinor] = [m![1], m![2], Number(m![3]), Number(m![4])];
    } else {
      const m = /^HTTP\/(\d)\.(\d) (\d{3})(?: (.*))?$/.exec(first);
      if (!m) this.fail('HPE_INVALID_CONSTANT', 'Expected HTTP/');
      [h.versionMajor, h.versionMinor, h.statusCode, h.statusMessage] = [Number(m![1]), Number(m![2]), Number(m![3]), m![4] ?? ''];
    }
    if (h.versionMajor !== 1) this.fail('HPE_INVALID_VERSION', 'Invalid HTTP version');

    let length: number | null = null;
    let chunked = false;
    let connection = '';
    let te = false;
    for (const line of lines.slice(1)) {
      const [name, value] = this.field(line);
      h.rawHeaders.push(name, value);
      const lower = name.toLowerCase();
      if (lower === 'content-length') {
        if (!/^\d+$/.test(value)) this.fail('HPE_INVALID_CONTENT_LENGTH', 'Invalid character in Content-Length');
        if (length !== null && length !== Number(value)) this.fail('HPE_UNEXPECTED_CONTENT_LENGTH', 'Duplicate Content-Length');
        length = Number(value);
      } else if (lower === 'transfer-encoding') {
        te = true;
        // Chunked must be the last coding; only then is the body's end known.
        chunked = /(^|,)\s*chunked\s*$/i.test(value);
      } else if (lower === 'connection') connection += `,${value.toLowerCase()}`;
      else if (lower === 'upgrade') h.upgrade = true;
    }
    if (te && length !== null) this.fail('HPE_UNEXPECTED_CONTENT_LENGTH', 'Content-Length can\'t be present with Transfer-Encoding');
    if (te && !chunked && this.kind === 'request') this.fail('HPE_INVALID_TRANSFER_ENCODING', 'Request has invalid `Transfer-Encoding`');
    const tokens = connection.split(',').map((t) => t.trim());
    h.keepAlive = h.versionMinor >= 1 ? !tokens.includes('close') : tokens.includes('keep-alive');
    h.upgrade &&= tokens.includes('upgrade');

    this.current = h;
    this.trailers = [];
    const noBody = this.on.head(h) === true || (this.kind === 'response' && (h.statusCode < 200 || h.statusCode === 204 || h.statusCode === 304));
    if (h.upgrade && this.kind === 'request') { this.endMessage(); this.state = 'closed'; return; }
    if (noBody) return this.endMessage();
    if (chunked) this.state = 'size';
    else if (length !== null) {
      this.remaining = length;
      if (length === 0) this.endMessage();
      else this.state = 'length';
    } else if (this.kind === 'response') {
      // A response with no framing runs until the connection closes.
      this.state = 'eof';
      h.keepAlive = false;
    } else this.endMessage();
  }

  private endMessage(): void {
    this.state = 'head';
    this.complete();
  }

  private complete(): void {
    const h = this.current;
    this.current = null;
    if (h) this.on.end(this.trailers);
    if (h && !h.keepAlive && this.kind === 'request') this.state = 'closed';
  }
}

/** Where a head starting at `from` ends: [the end of its text, just past the blank line], or null if incomplete. */
function headEnd(b: Uint8Array, from: number): [number, number] | null {
  for (let i = b.indexOf(10, from); i >= 0; i = b.indexOf(10, i + 1)) {
    const text = i > from && b[i - 1] === 13 ? i - 1 : i;
    if (b[i + 1] === 10) return [text, i + 2];
    if (b[i + 1] === 13 && i + 2 < b.byteLength) {
      if (b[i + 2] === 10) return [text, i + 3];
    } else if (i + 1 >= b.byteLength || (b[i + 1] === 13 && i + 2 >= b.byteLength)) return null;
  }
  return null;
}

const lineEnd = (b: Uint8Array, from: number): number => b.indexOf(10, from);
