// Build small ustar (+gzip) archives in tests, on either host.
import { concatBytes } from '../../src/abi/bytes.js';

const enc = new TextEncoder();

function header(path: string, size: number, mode: number, type: '0' | '5'): Uint8Array {
  const h = new Uint8Array(512);
  const put = (s: string, off: number) => h.set(enc.encode(s), off);
  const oct = (n: number, len: number) => n.toString(8).padStart(len - 1, '0');
  put(path, 0);
  put(oct(mode, 8), 100);
  put(oct(0, 8), 108);
  put(oct(0, 8), 116);
  put(oct(size, 12), 124);
  put(oct(0, 12), 136);
  put('        ', 148);
  put(type, 156);
  put('ustar\u000000', 257);
  const sum = h.reduce((a, b) => a + b, 0);
  put(`${oct(sum, 7)}\0`, 148);
  return h;
}

/** files: path → content (a trailing '/' makes a directory). */
export function tar(files: Record<string, string | Uint8Array>, modes: Record<string, number> = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [path, content] of Object.entries(files)) {
    if (path.endsWith('/')) {
      parts.push(header(path, 0, 0o755, '5'));
      continue;
    }
    const data = typeof content === 'string' ? enc.encode(content) : content;
    parts.push(header(path, data.byteLength, modes[path] ?? 0o644, '0'), data, new Uint8Array((512 - (data.byteLength % 512)) % 512));
  }
  parts.push(new Uint8Array(1024));
  return concatBytes(parts);
}

export async function gzip(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
