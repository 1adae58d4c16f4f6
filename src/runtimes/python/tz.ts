// Python's local time in the process's TZ. Emscripten's libc asks JavaScript
// for local time through three imports that read the worker's own `Date`
// (the host's zone, named "UTC-0500"); these answer from the userland's zone
// reader instead, so time.localtime/mktime/strftime('%Z') and the C datetime
// module see the zone glibc would (EST/EDT, IST, BST...). libc runs tzset
// once, and that once is in the memory snapshot: setZone writes timezone,
// daylight and tzname again for each process.

import { UTC, zoneFor, type Zone } from '../../userland/lib/tz.js';

/** The process's zone (a worker runs one interpreter at a time). */
let zone: Zone = UTC;

/** The part of Emscripten's module this needs: the addresses of libc's zone globals and its tzset. */
export interface ZoneModule {
  HEAPU8: Uint8Array;
  _tzname: number;
  _timezone: number;
  _daylight: number;
  _tzset(): void;
}

/** struct tm on wasm32: nine ints, then long tm_gmtoff (tm_zone is set by libc). */
const TM = { sec: 0, min: 4, hour: 8, mday: 12, mon: 16, year: 20, wday: 24, yday: 28, isdst: 32, gmtoff: 36 };
/** Emscripten's buffers for tzname[0] and [1]: 16 bytes and a NUL. */
const NAME_MAX = 16;

/** Replacements for Emscripten's `_tzset_js`, `_localtime_js` and `_mktime_js` imports; `memory` is the module's. */
export function zoneImports(memory: () => ArrayBuffer): Record<string, (...a: never[]) => unknown> {
  const view = () => new DataView(memory());
  return {
    _tzset_js: (tzPtr: number, dayPtr: number, stdPtr: number, dstPtr: number) =>
      writeGlobals(new Uint8Array(memory()), tzPtr >>> 0, dayPtr >>> 0, stdPtr >>> 0, dstPtr >>> 0),
    _localtime_js: (time: bigint, tmPtr: number) => writeTm(view(), tmPtr >>> 0, Number(time) * 1000),
    _mktime_js: (tmPtr: number): bigint => {
      const v = view();
      const p = tmPtr >>> 0;
      const get = (o: number) => v.getInt32(p + o, true);
      const d = new Date(0);
      d.setUTCFullYear(get(TM.year) + 1900, get(TM.mon), get(TM.mday));
      d.setUTCHours(get(TM.hour), get(TM.min), get(TM.sec));
      if (Number.isNaN(d.getTime())) return -1n;
      const dst = get(TM.isdst);
      let t = zone.fromLocal(d.getTime(), dst);
      // A DST flag the zone contradicts moves the time by an hour, as glibc's mktime does.
      const inDst = zone.at(t).dst;
      t += dst > 0 && !inDst ? -3600e3 : dst === 0 && inDst ? 3600e3 : 0;
      writeTm(v, p, t);
      return BigInt(Math.floor(t / 1000));
    },
  };
}

/** Local time at `ms` into the struct tm at `p`, as localtime_r fills it. */
function writeTm(v: DataView, p: number, ms: number): void {
  const info = Number.isFinite(ms) ? zone.at(ms) : { offset: 0, dst: false };
  const d = new Date(ms + info.offset * 1000);
  const set = (o: number, n: number) => v.setInt32(p + o, Number.isFinite(n) ? n : 0, true);
  set(TM.sec, d.getUTCSeconds());
  set(TM.min, d.getUTCMinutes());
  set(TM.hour, d.getUTCHours());
  set(TM.mday, d.getUTCDate());
  set(TM.mon, d.getUTCMonth());
  set(TM.year, d.getUTCFullYear() - 1900);
  set(TM.wday, d.getUTCDay());
  set(TM.yday, Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86400e3));
  set(TM.isdst, info.dst ? 1 : 0);
  set(TM.gmtoff, info.offset);
}

/** libc's timezone, daylight and tzname from this year's January and July, as Emscripten's tzset does with the worker's zone. */
function writeGlobals(heap: Uint8Array, tzPtr: number, dayPtr: number, stdPtr: number, dstPtr: number): void {
  const year = new Date().getUTCFullYear();
  const jan = zone.at(Date.UTC(year, 0, 1));
  const jul = zone.at(Date.UTC(year, 6, 1));
  const [std, dst] = jul.offset > jan.offset ? [jan, jul] : [jul, jan];
  const v = new DataView(heap.buffer);
  v.setInt32(tzPtr, -std.offset, true);
  v.setInt32(dayPtr, jan.offset !== jul.offset ? 1 : 0, true);
  writeName(heap, stdPtr, std.abbr);
  writeName(heap, dstPtr, dst.abbr);
}

function writeName(heap: Uint8Array, at: number, name: string): void {
  const bytes = new TextEncoder().encode(name).subarray(0, NAME_MAX);
  heap.set(bytes, at);
  heap[at + bytes.length] = 0;
}

/** The process's TZ (its environment's, or a later time.tzset()'s): libc's globals say so from now on. */
export function setZone(m: ZoneModule, tz: string | undefined): void {
  zone = zoneFor(tz);
  const v = new DataView(m.HEAPU8.buffer);
  const names = m._tzname >>> 0;
  // Before libc's first tzset the name pointers are null: that tzset then calls the import above.
  if (v.getUint32(names, true) === 0) return m._tzset();
  writeGlobals(m.HEAPU8, m._timezone >>> 0, m._daylight >>> 0, v.getUint32(names, true), v.getUint32(names + 4, true));
}
