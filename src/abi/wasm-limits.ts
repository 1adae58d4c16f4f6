// A ceiling on a wasm process's memory (decision 0021). A WASI command defines
// its own memory, and wasm-ld leaves it without a maximum, so the guest could
// grow it to 4 GiB. Before compiling, the kernel rewrites the memory section's
// limits so that memory.grow fails (malloc returns NULL) beyond the ceiling.

/** 64 KiB pages. */
const PAGE = 65536;
/** Per process: 1 GiB. */
export const MAX_MEMORY_PAGES = (1 << 30) / PAGE;

/** The page ceiling for a policy's maxMemoryBytes (whole pages, never above the runtime's own). */
export function pagesFor(maxBytes: number | undefined): number {
  return maxBytes === undefined ? MAX_MEMORY_PAGES : Math.min(MAX_MEMORY_PAGES, Math.floor(maxBytes / PAGE));
}

const MEMORY_SECTION = 5;

/**
 * `bytes` with every defined memory's maximum at most `maxPages`; a string
 * saying why when a memory's minimum is already above it. Bytes that do not
 * parse are returned as they are: compiling them reports the error.
 */
export function capMemory(bytes: Uint8Array, maxPages = MAX_MEMORY_PAGES): Uint8Array | string {
  let pos = 8; // magic and version
  try {
    while (pos < bytes.length) {
      const id = bytes[pos];
      const [size, at] = leb(bytes, pos + 1);
      const end = at + size;
      if (id === MEMORY_SECTION) return rewrite(bytes, pos, at, end, maxPages);
      pos = end;
    }
  } catch {
    // Malformed: leave it to the compiler.
  }
  return bytes;
}

function rewrite(bytes: Uint8Array, start: number, body: number, end: number, maxPages: number): Uint8Array | string {
  const [count, first] = leb(bytes, body);
  let p = first;
  const out: number[] = [...uleb(count)];
  for (let i = 0; i < count; i++) {
    const flags = bytes[p];
    const [min, a] = leb(bytes, p + 1);
    p = a;
    let max = maxPages;
    if (flags & 1) {
      const [declared, b] = leb(bytes, p);
      p = b;
      max = Math.min(declared, maxPages);
    }
    if (min > maxPages) return `needs ${min * (PAGE >> 10)} KiB of memory, more than the ${maxPages * (PAGE >> 10)} KiB a process may have`;
    out.push(flags | 1, ...uleb(min), ...uleb(max));
  }
  if (p !== end) return bytes; // not a section this parser understands
  const section = [MEMORY_SECTION, ...uleb(out.length), ...out];
  const result = new Uint8Array(start + section.length + (bytes.length - end));
  result.set(bytes.subarray(0, start));
  result.set(section, start);
  result.set(bytes.subarray(end), start + section.length);
  return result;
}

/** Unsigned LEB128 at `pos`: [value, position after it]. */
function leb(bytes: Uint8Array, pos: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (;;) {
    if (pos >= bytes.length) throw new RangeError('truncated LEB128');
    const b = bytes[pos++];
    value += (b & 0x7f) * scale;
    if (!(b & 0x80)) return [value, pos];
    scale *= 128;
  }
}

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}
