// --compressed: undo a gzip or deflate Content-Encoding as the body streams
// (fflate's streaming inflaters; the browser host has already decoded).

import { Gunzip, Inflate } from 'fflate';

export interface Decoder {
  push(chunk: Uint8Array, last: boolean): void;
}

/** A decoder writing to `out`, or null when the encoding is not one we undo. */
export function bodyDecoder(encoding: string | undefined, out: (b: Uint8Array) => void): Decoder | null {
  const e = (encoding ?? '').trim().toLowerCase();
  const d = e === 'gzip' || e === 'x-gzip' ? new Gunzip() : e === 'deflate' ? new Inflate() : null;
  if (!d) return null;
  d.ondata = (data) => out(data);
  return { push: (chunk, last) => d.push(chunk, last) };
}
