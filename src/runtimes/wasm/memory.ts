// The guest's linear memory as the WASI calls see it: little-endian fields,
// byte strings (names, argv and environment are bytes: abi/bytestr.ts), iovec
// lists. Views are rebuilt after memory.grow detaches the old buffer.

import { decodeBytes, encodeBytes } from '../../abi/bytestr.js';
import { WasiErrno } from './abi.js';
import { WasiError } from './errno.js';

export class Memory {
  private mem: WebAssembly.Memory | null = null;
  private buf: ArrayBuffer | null = null;
  private dv!: DataView;
  private u8!: Uint8Array;

  bind(mem: WebAssembly.Memory): void {
    this.mem = mem;
  }

  get view(): DataView {
    this.refresh();
    return this.dv;
  }

  get bytes(): Uint8Array {
    this.refresh();
    return this.u8;
  }

  private refresh(): void {
    if (!this.mem) throw new WasiError(WasiErrno.FAULT);
    if (this.mem.buffer !== this.buf) {
      this.buf = this.mem.buffer;
      this.dv = new DataView(this.buf);
      this.u8 = new Uint8Array(this.buf);
    }
  }

  /** Bounds-checked window into memory (a view, not a copy). */
  slice(ptr: number, len: number): Uint8Array {
    const b = this.bytes;
    if (ptr < 0 || len < 0 || ptr + len > b.byteLength) throw new WasiError(WasiErrno.FAULT);
    return b.subarray(ptr, ptr + len);
  }

  u32(ptr: number): number {
    return this.view.getUint32(ptr, true);
  }

  setU8(ptr: number, v: number): void {
    this.view.setUint8(ptr, v);
  }

  setU16(ptr: number, v: number): void {
    this.view.setUint16(ptr, v, true);
  }

  setU32(ptr: number, v: number): void {
    this.view.setUint32(ptr, v, true);
  }

  setU64(ptr: number, v: number | bigint): void {
    this.view.setBigUint64(ptr, typeof v === 'bigint' ? v : BigInt(Math.max(0, Math.trunc(v))), true);
  }

  /**
   * A path or other string argument. Bytes, as a C program on Linux passes
   * them: a name that is not UTF-8 keeps its bytes (WASI libc hands raw bytes
   * through), so two such names stay two files.
   */
  string(ptr: number, len: number): string {
    return decodeBytes(this.slice(ptr, len).slice());
  }

  /** The [ptr, len] pairs of an iovec/ciovec array. */
  iovecs(ptr: number, count: number): [number, number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < count; i++) out.push([this.u32(ptr + i * 8), this.u32(ptr + i * 8 + 4)]);
    return out;
  }

  /** Copy `data` into the iovecs in order; returns the bytes placed. */
  scatter(iovs: [number, number][], data: Uint8Array): number {
    let off = 0;
    for (const [p, len] of iovs) {
      if (off >= data.byteLength) break;
      const n = Math.min(len, data.byteLength - off);
      this.slice(p, n).set(data.subarray(off, off + n));
      off += n;
    }
    return off;
  }

  /** Concatenate the ciovecs' bytes (one view when there is a single non-empty buffer). */
  gather(iovs: [number, number][]): Uint8Array {
    const parts = iovs.filter(([, len]) => len > 0);
    if (parts.length === 1) return this.slice(parts[0][0], parts[0][1]);
    const total = parts.reduce((n, [, len]) => n + len, 0);
    const out = new Uint8Array(total);
    let off = 0;
    for (const [p, len] of parts) {
      out.set(this.slice(p, len), off);
      off += len;
    }
    return out;
  }

  /** args_get/environ_get: NUL-terminated strings into `buf`, their pointers into `ptrs`. */
  writeStrings(list: Uint8Array[], ptrs: number, buf: number): void {
    let at = buf;
    list.forEach((s, i) => {
      this.setU32(ptrs + i * 4, at);
      this.slice(at, s.byteLength + 1).set(s);
      this.bytes[at + s.byteLength] = 0;
      at += s.byteLength + 1;
    });
  }

  static encode(s: string): Uint8Array {
    return encodeBytes(s);
  }
}
