// Reading tar archives (ustar, with pax and GNU long names) and gunzip, for
// installing npm-style package tarballs inside the VM.

export interface TarEntry {
  path: string;
  type: 'file' | 'dir' | 'other';
  mode: number;
  data: Uint8Array;
}

const utf8 = new TextDecoder();

function field(b: Uint8Array, off: number, len: number): string {
  const end = b.subarray(off, off + len).indexOf(0);
  return utf8.decode(b.subarray(off, end < 0 ? off + len : off + end));
}

function octal(b: Uint8Array, off: number, len: number): number {
  const s = field(b, off, len).trim();
  return s ? parseInt(s, 8) : 0;
}

/** Parse pax extended header records ("len key=value\n"). */
function pax(data: Uint8Array): Record<string, string> {
  const out: Record<string, string> = {};
  const text = utf8.decode(data);
  for (let i = 0; i < text.length; ) {
    const sp = text.indexOf(' ', i);
    const len = Number(text.slice(i, sp));
    if (!len) break;
    const rec = text.slice(sp + 1, i + len - 1);
    const eq = rec.indexOf('=');
    out[rec.slice(0, eq)] = rec.slice(eq + 1);
    i += len;
  }
  return out;
}

export function untar(tar: Uint8Array): TarEntry[] {
  const out: TarEntry[] = [];
  let longName: string | null = null;
  let paxPath: string | null = null;
  for (let off = 0; off + 512 <= tar.byteLength; ) {
    const h = tar.subarray(off, off + 512);
    if (h.every((x) => x === 0)) break;
    const size = octal(h, 124, 12);
    const typeflag = String.fromCharCode(h[156] || 0x30);
    const data = tar.subarray(off + 512, off + 512 + size);
    off += 512 + Math.ceil(size / 512) * 512;
    if (typeflag === 'L') {
      longName = field(data, 0, data.byteLength);
      continue;
    }
    if (typeflag === 'x') {
      paxPath = pax(data).path ?? null;
      continue;
    }
    if (typeflag === 'g') continue;
    const prefix = field(h, 345, 155);
    const name = paxPath ?? longName ?? (prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100));
    longName = paxPath = null;
    const type = typeflag === '0' || typeflag === '7' ? 'file' : typeflag === '5' ? 'dir' : 'other';
    out.push({ path: name, type, mode: octal(h, 100, 8) & 0o7777, data });
  }
  return out;
}

export async function gunzip(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
