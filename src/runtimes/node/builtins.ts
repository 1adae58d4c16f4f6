// The built-in modules, each made on first require by its process.

import { Buffer, constants as bufferConstants, kMaxLength } from 'buffer';
import { makeAssert } from './assert.js';
import { makeChildProcess } from './child_process.js';
import { Console } from './console.js';
import { makeCrypto } from './crypto.js';
import { makeDns } from './dns.js';
import { makeEvents } from './events.js';
import { constants as fsConstants, makeFs } from './fs.js';
import { makeHttp } from './http.js';
import { makeHttp2 } from './http2.js';
import { makeHttps } from './https.js';
import { makeModule } from './module.js';
import { makeNet } from './net.js';
import { makeOs } from './os.js';
import { makeQuerystring } from './querystring.js';
import { makeReadline } from './readline.js';
import type { Rt } from './rt.js';
import { makeStream, promises as streamPromises } from './stream.js';
import { StringDecoder } from './string_decoder.js';
import { makeTimers, makeTimersPromises } from './timers.js';
import { makeTls } from './tls.js';
import { makeUrl } from './url.js';
import { makeUtil, types } from './util.js';
import { fdReader, fdWriter } from './process.js';
import { makeV8 } from './v8.js';
import { makeVm } from './vm.js';
import { makeZlib } from './zlib.js';

type Make = (rt: Rt) => unknown;

export const BUILTINS: Record<string, Make> = {
  assert: () => makeAssert(false),
  'assert/strict': () => makeAssert(true),
  buffer: () => ({ Buffer, constants: bufferConstants, kMaxLength, atob: globalThis.atob, btoa: globalThis.btoa, Blob: globalThis.Blob, SlowBuffer: Buffer }),
  child_process: makeChildProcess,
  console: (rt) => Object.assign(rt.console, { Console }),
  constants: (rt) => ({ ...fsConstants, ...(rt.builtin('os') as { constants: { signals: object } }).constants.signals }),
  crypto: (rt) => makeCrypto((cb, args) => rt.loop.nextTick(cb, args)),
  dns: (rt) => makeDns((cb, args) => rt.loop.nextTick(cb, args)),
  'dns/promises': (rt) => (rt.builtin('dns') as { promises: unknown }).promises,
  events: makeEvents,
  fs: makeFs,
  'fs/promises': (rt) => (rt.builtin('fs') as { promises: unknown }).promises,
  http: makeHttp,
  http2: makeHttp2,
  https: makeHttps,
  module: makeModule,
  net: makeNet,
  os: makeOs,
  path: (rt) => rt.path,
  'path/posix': (rt) => rt.path,
  process: (rt) => rt.process,
  querystring: makeQuerystring,
  readline: () => makeReadline(false),
  'readline/promises': () => makeReadline(true),
  stream: makeStream,
  'stream/promises': () => streamPromises,
  string_decoder: () => ({ StringDecoder }),
  timers: (rt) => makeTimers(rt.loop),
  'timers/promises': (rt) => makeTimersPromises(rt.loop),
  tls: makeTls,
  tty: (rt) => ({
    isatty: (fd: number) => { try { return rt.sys.isatty(fd); } catch { return false; } },
    ReadStream: function ReadStream(fd: number) { return fdReader(rt.ctx, rt.loop, fd, false, rt.tty); },
    WriteStream: function WriteStream(fd: number) { return fdWriter(rt.ctx, fd); },
  }),
  url: (rt) => makeUrl((p) => rt.path.resolve(p)),
  util: makeUtil,
  'util/types': () => types,
  worker_threads: () => ({ isMainThread: true, parentPort: null, workerData: null, threadId: 0 }),
  perf_hooks: () => ({ performance: globalThis.performance, PerformanceObserver: class {}, monitorEventLoopDelay: () => ({ enable() {}, disable() {} }) }),
  v8: makeV8,
  vm: makeVm,
  zlib: (rt) => makeZlib((cb, args) => rt.loop.nextTick(cb, args)),
};
