// The streaming loops of gzip: read the input chunk by chunk through the
// encoder or decoder into a sink, reporting failures GNU's way.

import type { Stat } from '../../../abi/stat.js';
import { chunks, join } from '../../../userland/lib/reader.js';
import type { Gz } from './context.js';
import { GzDecoder, GzError } from './decoder.js';
import { GzEncoder } from './encoder.js';
import { isProblem, parseHeader, type GzHeader } from './header.js';

export interface Input {
  fd: number;
  name: string;
  st: Stat;
}

/** Read until the first member's header is complete (GNU reads it before creating any output). */
export function readHeader(g: Gz, input: Input): { header: GzHeader; bytes: Uint8Array } | null {
  let bytes: Uint8Array = new Uint8Array(0);
  try {
    for (const chunk of chunks(g.sys, input.fd)) {
      bytes = bytes.byteLength ? join(bytes, chunk) : chunk;
      const h = parseHeader(bytes);
      if (h === null) continue;
      if (isProblem(h)) {
        if (g.opts.force && g.opts.stdout && !g.opts.list) return { header: { name: null, mtime: 0, length: 0 }, bytes };
        g.error(input.name + h.message, h.leadingNewline);
        return null;
      }
      return { header: h, bytes };
    }
  } catch (e) {
    g.sysError(input.name, e);
    return null;
  }
  if (g.opts.force && g.opts.stdout && !g.opts.list && bytes[0] !== 0x1f) return { header: { name: null, mtime: 0, length: 0 }, bytes };
  g.error(`${input.name}: unexpected end of file`, true);
  return null;
}

export function compress(g: Gz, input: Input, sink: (b: Uint8Array) => void, name: string | null, mtime: number): GzEncoder | null {
  const enc = new GzEncoder(sink, g.opts.level, name, mtime);
  try {
    for (const chunk of chunks(g.sys, input.fd)) enc.push(chunk);
  } catch (e) {
    g.sysError(input.name, e);
    return null;
  }
  enc.end();
  return enc;
}

/** Decompress the rest of the input after `first`; null after reporting a failure. */
export function decompress(g: Gz, input: Input, first: Uint8Array, sink: ((b: Uint8Array) => void) | null): GzDecoder | null {
  const o = g.opts;
  const dec = new GzDecoder(sink ?? (() => {}), o.force && o.stdout);
  try {
    dec.push(first);
    for (const chunk of chunks(g.sys, input.fd)) dec.push(chunk);
    dec.end();
  } catch (e) {
    if (e instanceof GzError) {
      g.error(input.name + e.message, e.leadingNewline);
      return null;
    }
    g.sysError(input.name, e);
    return null;
  }
  if (dec.tail === 'garbage') g.warn(`${input.name}: decompression OK, trailing garbage ignored`, true);
  else if (dec.tail === 'zeros' && o.verbose) g.warn(`${input.name}: decompression OK, trailing zero bytes ignored`, true);
  return dec;
}
