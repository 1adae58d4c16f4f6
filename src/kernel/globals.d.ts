// The globals the kernel and the ABI may use: the part of the Web platform a
// browser's Web Worker and Node's worker_threads both provide, with the same
// behaviour. src/kernel/tsconfig.json compiles src/kernel/ and src/abi/ with
// these in place of lib.dom and @types/node, so any other host API (document,
// navigator, process, Buffer, node:*) fails to compile there. Declared by
// hand, only the members in use; add one only if both hosts have it.
// The root tsconfig.json excludes this file: there lib.dom declares them.

interface TimerHandle {
  readonly __timer: unique symbol;
}
declare function setTimeout(handler: () => void, ms?: number): TimerHandle;
declare function clearTimeout(timer: TimerHandle | null | undefined): void;
declare function setInterval(handler: () => void, ms?: number): TimerHandle;
declare function clearInterval(timer: TimerHandle | null | undefined): void;
declare function queueMicrotask(callback: () => void): void;

declare const performance: { now(): number };
declare const console: { error(...data: unknown[]): void };
// eslint-disable-next-line no-var -- a var, as in lib.dom: random.ts reads it as globalThis.crypto
declare var crypto: { getRandomValues<T extends ArrayBufferView>(array: T): T };

declare class TextEncoder {
  encode(input?: string): Uint8Array<ArrayBuffer>;
  encodeInto(input: string, dest: Uint8Array): { read: number; written: number };
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string;
}

declare class URL {
  constructor(url: string, base?: string);
  href: string;
  origin: string;
  protocol: string;
  username: string;
  password: string;
  host: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
  hash: string;
}

declare class AbortSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
declare class AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}

declare namespace WebAssembly {
  class Module {
    constructor(bytes: ArrayBufferView<ArrayBuffer> | ArrayBuffer);
  }
  function compile(bytes: ArrayBufferView<ArrayBuffer> | ArrayBuffer): Promise<Module>;
}
