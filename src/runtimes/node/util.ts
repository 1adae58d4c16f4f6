// The `util` module: format/inspect, promisify/callbackify, inherits,
// deprecate, types, isDeepStrictEqual, TextEncoder/TextDecoder.

import { isDeepStrictEqual } from './deep-equal.js';
import { format, formatWith, inspect } from './inspect.js';
import type { Rt } from './rt.js';
import { parseArgs } from './parse-args.js';
import { nodeError } from './errors.js';

/** util.inspect.colors: SGR on/off codes. */
const inspectColors: Record<string, [number, number]> = {
  reset: [0, 0], bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24], inverse: [7, 27], hidden: [8, 28],
  strikethrough: [9, 29], black: [30, 39], red: [31, 39], green: [32, 39], yellow: [33, 39], blue: [34, 39], magenta: [35, 39],
  cyan: [36, 39], white: [37, 39], gray: [90, 39], grey: [90, 39], bgRed: [41, 49], bgGreen: [42, 49], bgYellow: [43, 49],
  bgBlue: [44, 49], bgMagenta: [45, 49], bgCyan: [46, 49], bgWhite: [47, 49], bgBlack: [40, 49],
};

const kCustomPromisify = Symbol.for('nodejs.util.promisify.custom');

type AnyFn = (...a: unknown[]) => unknown;

export function promisify(fn: AnyFn): AnyFn {
  if (typeof fn !== 'function') {
    const e = new TypeError(`The "original" argument must be of type function. Received ${typeof fn}`) as TypeError & { code: string };
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
  const custom = (fn as unknown as Record<symbol, AnyFn>)[kCustomPromisify];
  if (typeof custom === 'function') return custom;
  const p = function (this: unknown, ...args: unknown[]) {
    return new Promise((resolve, reject) => {
      fn.call(this, ...args, (err: unknown, ...values: unknown[]) => (err ? reject(err) : resolve(values[0])));
    });
  };
  Object.setPrototypeOf(p, Object.getPrototypeOf(fn));
  return Object.defineProperties(p, Object.getOwnPropertyDescriptors(fn)) as AnyFn;
}
promisify.custom = kCustomPromisify;

const tag = (v: unknown) => Object.prototype.toString.call(v).slice(8, -1);

export const types = {
  isPromise: (v: unknown) => v instanceof Promise,
  isRegExp: (v: unknown) => v instanceof RegExp,
  isDate: (v: unknown) => v instanceof Date,
  isMap: (v: unknown) => v instanceof Map,
  isSet: (v: unknown) => v instanceof Set,
  isWeakMap: (v: unknown) => v instanceof WeakMap,
  isWeakSet: (v: unknown) => v instanceof WeakSet,
  isNativeError: (v: unknown) => v instanceof Error,
  isTypedArray: (v: unknown) => ArrayBuffer.isView(v) && !(v instanceof DataView),
  isUint8Array: (v: unknown) => v instanceof Uint8Array,
  isArrayBuffer: (v: unknown) => v instanceof ArrayBuffer,
  isAnyArrayBuffer: (v: unknown) => v instanceof ArrayBuffer || tag(v) === 'SharedArrayBuffer',
  isArrayBufferView: (v: unknown) => ArrayBuffer.isView(v),
  isDataView: (v: unknown) => v instanceof DataView,
  isAsyncFunction: (v: unknown) => typeof v === 'function' && tag(v) === 'AsyncFunction',
  isGeneratorFunction: (v: unknown) => typeof v === 'function' && /GeneratorFunction$/.test(tag(v)),
  isGeneratorObject: (v: unknown) => tag(v) === 'Generator',
  isBoxedPrimitive: (v: unknown) => v instanceof Number || v instanceof String || v instanceof Boolean,
  isSymbolObject: (v: unknown) => typeof v === 'object' && tag(v) === 'Symbol',
  isProxy: () => false,
};

export function makeUtil(rt: Rt): Record<string, unknown> {
  const debuglogs = new Map<string, AnyFn>();
  return {
    format,
    formatWithOptions: (o: object, ...a: unknown[]) => formatWith(o, a),
    inspect,
    promisify,
    callbackify: (fn: (...a: unknown[]) => Promise<unknown>) => function (this: unknown, ...args: unknown[]) {
      const cb = args.pop() as (e: unknown, v?: unknown) => void;
      fn.apply(this, args).then((v) => cb(null, v), (e) => cb(e ?? new Error('Promise was rejected with a falsy value')));
    },
    inherits(ctor: AnyFn & { super_?: unknown }, superCtor: AnyFn) {
      Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
      Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
    },
    deprecate(fn: AnyFn, msg: string, code?: string) {
      let warned = false;
      return function (this: unknown, ...a: unknown[]) {
        if (!warned) {
          warned = true;
          (rt.process.emitWarning as (m: string, t: string) => void)(code ? `[${code}] ${msg}` : msg, 'DeprecationWarning');
        }
        return fn.apply(this, a);
      };
    },
    debuglog(section: string) {
      let f = debuglogs.get(section);
      if (!f) debuglogs.set(section, (f = Object.assign(() => {}, { enabled: false })));
      return f;
    },
    isDeepStrictEqual,
    types,
    isArray: Array.isArray,
    isBoolean: (v: unknown) => typeof v === 'boolean',
    isNull: (v: unknown) => v === null,
    isNullOrUndefined: (v: unknown) => v == null,
    isNumber: (v: unknown) => typeof v === 'number',
    isString: (v: unknown) => typeof v === 'string',
    isSymbol: (v: unknown) => typeof v === 'symbol',
    isUndefined: (v: unknown) => v === undefined,
    isRegExp: types.isRegExp,
    isObject: (v: unknown) => v !== null && typeof v === 'object',
    isDate: types.isDate,
    isError: (v: unknown) => v instanceof Error,
    isFunction: (v: unknown) => typeof v === 'function',
    isPrimitive: (v: unknown) => v === null || (typeof v !== 'object' && typeof v !== 'function'),
    TextEncoder,
    TextDecoder,
    parseArgs: (config?: Parameters<typeof parseArgs>[0]) => parseArgs(config, rt.process.argv.slice(rt.process._eval === undefined ? 2 : 1)),
    styleText: (format: string | string[], text: string) => {
      let s = text;
      for (const f of [format].flat().reverse()) {
        const c = inspectColors[f];
        if (!c) throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'format' must be one of: ${Object.keys(inspectColors).join(', ')}. Received '${f}'`);
        s = `\x1b[${c[0]}m${s}\x1b[${c[1]}m`;
      }
      return s;
    },
    // eslint-disable-next-line no-control-regex -- ESC starts the sequences to strip
    stripVTControlCharacters: (s: string) => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, ''),
  };
}
