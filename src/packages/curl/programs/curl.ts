// curl [options...] <url>...: transfer a URL over HTTP(S) through the kernel's
// http syscall, under the VM's network policy (a denial is exit 7 with the
// policy named). Bodies stream from the kernel's pipe to stdout or a file.
// Exit codes and messages follow curl 7.88 (libcurl's CURLcode).

import { byteString, byteStringBytes } from '../../../abi/bytes.js';
import { Errno, SysError } from '../../../abi/errno.js';
import { O_RDONLY } from '../../../abi/fcntl.js';
import type { HttpRequest, HttpResponse } from '../../../abi/http.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, parseArgs, UsageError, type Cmd } from '../../../userland/lib/index.js';
import { bodyDecoder } from './decode.js';
import { EXIT, header, isRedirect, locationOf, parseUrl, redirected, TransferError, transferError } from './http.js';
import { formPart, multipart, type FormPart } from './form.js';
import { Output } from './output.js';
import { Progress } from './progress.js';
import { INLINE_BODY_MAX, rewindBody, spoolBody } from './spool.js';
import { writeOut, type WriteOutInfo } from './writeout.js';

const VERSION = '0.1.0';

const USAGE = `Usage: curl [options...] <url>
 -d, --data <data>           HTTP POST data (@file reads a file, newlines removed)
     --data-binary <data>    HTTP POST data, @file read as is
     --data-raw <data>       HTTP POST data, '@' not special
     --data-urlencode <data> HTTP POST data, URL-encoded
 -G, --get                   Put the post data in the URL and use GET
 -F, --form <name=content>   Specify multipart MIME data (@file uploads, <file reads)
     --form-string <name=str> Specify multipart MIME data, the value as is
 -f, --fail                  Fail silently (no output at all) on HTTP errors
     --fail-with-body        Fail on HTTP errors but save the body
 -H, --header <header>       Pass custom header(s) to server
 -i, --include               Include protocol response headers in the output
 -I, --head                  Show document info only
 -D, --dump-header <file>    Write the received headers to <file>
 -L, --location              Follow redirects
     --max-redirs <num>      Maximum number of redirects allowed (default 50)
 -o, --output <file>         Write to file instead of stdout
 -O, --remote-name           Write output to a file named as the remote file
     --create-dirs           Create necessary local directory hierarchy
 -T, --upload-file <file>    Transfer local FILE to destination (PUT)
 -X, --request <method>      Specify request method to use
 -u, --user <user:password>  Server user and password (Basic)
 -A, --user-agent <name>     Send User-Agent <name> to server
 -e, --referer <URL>         Referrer URL
     --compressed            Request a compressed response (gzip, deflate)
 -m, --max-time <seconds>    Maximum time allowed for the transfer
     --connect-timeout <s>   Maximum time allowed for connection
     --retry <num>           Retry request if transient problems occur
     --retry-delay <seconds> Wait time between retries
     --retry-connrefused     Retry on connection refused too
 -k, --insecure              Accepted; has no effect (TLS is always verified by the host)
 -s, --silent                Silent mode
 -S, --show-error            Show error even when -s is used
 -v, --verbose               Make the operation more talkative (on stderr)
 -w, --write-out <format>    Use output FORMAT after completion
     --no-progress-meter     Do not show the progress meter
     --url <url>             URL to work with
 -h, --help                  This help text
 -V, --version               Show version number and quit

Requests go through the VM's network policy; see curl(1).
`;

const SPEC = {
  short: 'd:fF:GH:iID:Lo:OT:X:u:A:e:m:ksSvw:hV#',
  long: {
    data: ['d', 'required'], 'data-ascii': ['d', 'required'], 'data-binary': ['data-binary', 'required'],
    form: ['F', 'required'], 'form-string': ['form-string', 'required'],
    'data-raw': ['data-raw', 'required'], 'data-urlencode': ['data-urlencode', 'required'], get: ['G', 'none'],
    fail: ['f', 'none'], 'fail-with-body': ['fail-with-body', 'none'], header: ['H', 'required'], include: ['i', 'none'],
    head: ['I', 'none'], 'dump-header': ['D', 'required'], location: ['L', 'none'], 'max-redirs': ['max-redirs', 'required'],
    output: ['o', 'required'], 'remote-name': ['O', 'none'], 'create-dirs': ['create-dirs', 'none'],
    'upload-file': ['T', 'required'], request: ['X', 'required'], user: ['u', 'required'], 'user-agent': ['A', 'required'],
    referer: ['e', 'required'], compressed: ['compressed', 'none'], 'max-time': ['m', 'required'],
    'connect-timeout': ['connect-timeout', 'required'], retry: ['retry', 'required'], 'retry-delay': ['retry-delay', 'required'],
    'retry-connrefused': ['retry-connrefused', 'none'], insecure: ['k', 'none'], silent: ['s', 'none'],
    'show-error': ['S', 'none'], verbose: ['v', 'none'], 'write-out': ['w', 'required'], 'no-progress-meter': ['no-progress-meter', 'none'],
    'progress-bar': ['#', 'none'], url: ['url', 'required'], help: ['h', 'none'], version: ['V', 'none'],
  },
} as const;

const enc = new TextEncoder();
const dec = new TextDecoder();

interface Options {
  silent: boolean;
  showError: boolean;
  verbose: boolean;
  fail: 'no' | 'silent' | 'body';
  follow: boolean;
  maxRedirs: number;
  include: boolean;
  head: boolean;
  dumpHeader: string | null;
  method: string | null;
  headers: [string, string | null][];
  data: Uint8Array[] | null;
  form: FormPart[] | null;
  get: boolean;
  upload: string | null;
  user: string | null;
  compressed: boolean;
  maxTimeMs: number;
  connectTimeoutMs: number;
  retries: number;
  retryDelayMs: number;
  retryConnRefused: boolean;
  writeOut: string | null;
  createDirs: boolean;
  progress: boolean;
}

function seconds(opt: string, v: string): number {
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(v)) throw new TransferError(2, `option ${opt}: expected a proper numerical parameter`);
  return Math.round(Number(v) * 1000);
}

function integer(opt: string, v: string): number {
  if (!/^\d+$/.test(v)) throw new TransferError(2, `option ${opt}: expected a proper numerical parameter`);
  return Number(v);
}

/** curl's URL encoding: unreserved characters kept, space as '+', the rest %XX. */
function urlencode(s: string | Uint8Array): string {
  let out = '';
  for (const b of typeof s === 'string' ? enc.encode(s) : s) {
    const ch = String.fromCharCode(b);
    out += /[A-Za-z0-9._~-]/.test(ch) ? ch : b === 0x20 ? '+' : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** --data-urlencode's forms: content, =content, name=content, @file, name@file. */
function urlencodeArg(c: Cmd, v: string): string {
  const eq = v.indexOf('=');
  const at = v.indexOf('@');
  if (eq >= 0 && (at < 0 || eq < at)) return (eq > 0 ? `${v.slice(0, eq)}=` : '') + urlencode(v.slice(eq + 1));
  if (at >= 0) return (at > 0 ? `${v.slice(0, at)}=` : '') + urlencode(readArgFile(c, v.slice(at + 1)));
  return urlencode(v);
}

function readArgFile(c: Cmd, path: string): Uint8Array {
  try {
    return path === '-' ? c.sys.readAll(0) : c.sys.readFile(path);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    c.warn(`Failed to open ${path}`);
    throw new TransferError(EXIT.READ_ERROR, `Failed to open/read local data from file/application`);
  }
}

/** A -F file: curl says only exit 26's message when it cannot be read. */
function readFormFile(c: Cmd, path: string): Uint8Array {
  try {
    return path === '-' ? c.sys.readAll(0) : c.sys.readFile(path);
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    throw new TransferError(EXIT.READ_ERROR, `Failed to open/read local data from file/application`);
  }
}

function options(c: Cmd, list: [string, string | undefined][]): Options {
  const o: Options = {
    silent: false, showError: false, verbose: false, fail: 'no', follow: false, maxRedirs: 50, include: false, head: false,
    dumpHeader: null, method: null, headers: [], data: null, form: null, get: false, upload: null, user: null,
    compressed: false, maxTimeMs: 0, connectTimeoutMs: 0, retries: 0, retryDelayMs: 0, retryConnRefused: false,
    writeOut: null, createDirs: false, progress: false,
  };
  const addData = (d: string | Uint8Array) => (o.data ??= []).push(typeof d === 'string' ? enc.encode(d) : d);
  for (const [k, v = ''] of list) {
    switch (k) {
      case 's': o.silent = true; break;
      case 'S': o.showError = true; break;
      case 'v': o.verbose = true; break;
      case 'f': o.fail = 'silent'; break;
      case 'fail-with-body': o.fail = 'body'; break;
      case 'L': o.follow = true; break;
      case 'max-redirs': o.maxRedirs = v === '-1' ? Infinity : integer('--max-redirs', v); break;
      case 'i': o.include = true; break;
      case 'I': o.head = true; break;
      case 'D': o.dumpHeader = v; break;
      case 'X': o.method = v; break;
      case 'H': {
        // "Name: value" sets, "Name:" removes a default header, "Name;" sends it empty.
        const colon = v.indexOf(':');
        if (colon > 0) o.headers.push([v.slice(0, colon).trim(), byteString(v.slice(colon + 1).trim()) || null]);
        else if (v.endsWith(';')) o.headers.push([v.slice(0, -1).trim(), '']);
        break;
      }
      case 'd': addData(v.startsWith('@') ? readArgFile(c, v.slice(1)).filter((b) => b !== 0x0d && b !== 0x0a) : v); break;
      case 'data-raw': addData(v); break;
      case 'data-binary': addData(v.startsWith('@') ? readArgFile(c, v.slice(1)) : v); break;
      case 'data-urlencode': addData(urlencodeArg(c, v)); break;
      case 'F':
      case 'form-string': {
        const part = formPart(v, k === 'form-string', (path) => readFormFile(c, path));
        if (!part) throw new TransferError(2, `option ${k === 'F' ? '-F' : '--form-string'}: is badly used here`);
        (o.form ??= []).push(part);
        break;
      }
      case 'G': o.get = true; break;
      case 'T': o.upload = v; break;
      case 'u': o.user = v; break;
      case 'A': o.headers.push(['User-Agent', byteString(v)]); break;
      case 'e': o.headers.push(['Referer', byteString(v)]); break;
      case 'compressed': o.compressed = true; break;
      case 'm': o.maxTimeMs = seconds('-m', v); break;
      case 'connect-timeout': o.connectTimeoutMs = seconds('--connect-timeout', v); break;
      case 'retry': o.retries = integer('--retry', v); break;
      case 'retry-delay': o.retryDelayMs = integer('--retry-delay', v) * 1000; break;
      case 'retry-connrefused': o.retryConnRefused = true; break;
      case 'w': o.writeOut = v.startsWith('@') ? dec.decode(readArgFile(c, v.slice(1))) : v; break;
      case 'create-dirs': o.createDirs = true; break;
      case '#': o.progress = true; break;
      // -k: the host verifies TLS (Node's https, the browser's fetch) and the guest cannot turn that off.
      case 'k': break;
    }
  }
  if (o.form && o.data) {
    // curl's own wording; it exits 2 (a usage error) after saying it, unless silenced.
    if (!o.silent) {
      c.out.flush();
      c.sys.writeAll(2, 'Warning: You can only select one HTTP request method! You asked for both POST \nWarning: (-d, --data) and multipart formpost (-F, --form).\n');
    }
    throw new TransferError(2, '');
  }
  return o;
}

function baseHeaders(o: Options): [string, string][] {
  const h = new Map<string, [string, string | null]>();
  const set = (k: string, v: string | null) => h.set(k.toLowerCase(), [k, v]);
  set('User-Agent', `curl/${VERSION} (agentOS)`);
  set('Accept', '*/*');
  if (o.compressed) set('Accept-Encoding', 'deflate, gzip');
  if (o.user !== null) {
    const bin = String.fromCharCode(...enc.encode(o.user.includes(':') ? o.user : `${o.user}:`));
    set('Authorization', `Basic ${btoa(bin)}`);
  }
  if (o.data && !o.get) set('Content-Type', 'application/x-www-form-urlencoded');
  if (o.form) set('Content-Type', o.form.length ? 'multipart/form-data' : null); // the boundary is added per request
  for (const [k, v] of o.headers) set(k, v);
  return [...h.values()].filter((e): e is [string, string] => e[1] !== null);
}

/** The first request for one URL. */
function firstRequest(c: Cmd, o: Options, raw: string): { req: HttpRequest; uploadFd: number | null } {
  let url = parseUrl(raw);
  const data = o.data ? joinData(o.data) : null;
  if (o.get && data !== null) {
    url = new URL(url.href);
    const query = dec.decode(data);
    url.search = url.search ? `${url.search}&${query}` : `?${query}`;
  }
  const req: HttpRequest = { method: 'GET', url: url.href, headers: baseHeaders(o) };
  let uploadFd: number | null = null;
  if (o.head) req.method = 'HEAD';
  else if (o.upload !== null) {
    req.method = 'PUT';
    if (url.pathname.endsWith('/') && o.upload !== '-') req.url = new URL(o.upload.replace(/.*\//, ''), url).href;
    try {
      uploadFd = o.upload === '-' ? 0 : c.sys.open(o.upload, O_RDONLY);
    } catch (e) {
      if (!(e instanceof SysError)) throw e;
      throw new TransferError(EXIT.READ_ERROR, `Failed to open/read local data from file/application`);
    }
    req.bodyFd = uploadFd;
    if (uploadFd !== 0) req.headers.push(['Content-Length', String(c.sys.fstat(uploadFd).size)]);
  } else if (o.form) {
    const { body, contentType } = multipart(o.form);
    req.method = 'POST';
    req.body = body;
    req.headers = req.headers.map(([k, v]) => (k.toLowerCase() === 'content-type' && v === 'multipart/form-data' ? [k, contentType] : [k, v]));
  } else if (data !== null && !o.get) {
    req.method = 'POST';
    req.body = data;
  }
  if (req.body && req.body.byteLength > INLINE_BODY_MAX) {
    uploadFd = spoolBody(c, req.body);
    req.headers.push(['Content-Length', String(req.body.byteLength)]);
    req.bodyFd = uploadFd;
    delete req.body;
  }
  if (o.method !== null) req.method = o.method;
  return { req, uploadFd };
}

/** The -d pieces, joined by '&' as curl joins them. */
function joinData(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0) + parts.length - 1);
  let at = 0;
  for (const [i, p] of parts.entries()) {
    if (i) out[at++] = 0x26;
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

function headText(res: HttpResponse): string {
  return `HTTP/${res.httpVersion} ${res.status} ${res.statusText}\r\n${res.headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
}

/** One URL, once (no retries): returns the write-out info; throws TransferError. */
function transfer(c: Cmd, o: Options, raw: string, out: Output, info: WriteOutInfo): void {
  const sys = c.sys;
  const started = Date.now();
  const { req: first, uploadFd } = firstRequest(c, o, raw);
  let req = first;
  info.method = req.method;
  try {
    for (let hops = 0; ; hops++) {
      const url = new URL(req.url);
      info.urlEffective = req.url;
      if (o.verbose) {
        c.out.flush();
        const lines = [`${req.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, ...req.headers.map(([k, v]) => `${k}: ${v}`), ''];
        sys.writeAll(2, byteStringBytes(lines.map((l) => `> ${l}\r\n`).join('')));
      }
      const left = o.maxTimeMs ? o.maxTimeMs - (Date.now() - started) : 0;
      if (o.maxTimeMs && left <= 0) throw new TransferError(EXIT.OPERATION_TIMEDOUT, `Operation timed out after ${Date.now() - started} milliseconds with 0 bytes received`);
      let res: HttpResponse;
      try {
        res = sys.http({ ...req, timeoutMs: left, connectTimeoutMs: o.connectTimeoutMs || undefined });
      } catch (e) {
        throw transferError(e, url, elapsedAt(e, started, o.maxTimeMs), 0);
      }
      info.res = res;
      info.timeStartMs = Date.now() - started;
      const text = headText(res);
      // Its values came one char per byte: out byte for byte (a latin1 é stays 0xE9).
      const block = byteStringBytes(text);
      info.headerBytes += block.byteLength;
      if (o.verbose) sys.writeAll(2, byteStringBytes(text.split('\r\n').slice(0, -1).map((l) => `< ${l}\r\n`).join('')));
      if (o.include || o.head) c.out.write(block);
      if (o.dumpHeader !== null) appendHeaders(c, o.dumpHeader, block, hops === 0);
      if (isRedirect(res)) info.redirectUrl = new URL(locationOf(res)!, url).href;
      if (o.follow && isRedirect(res)) {
        sys.close(res.fd);
        if (hops + 1 > o.maxRedirs) throw new TransferError(EXIT.TOO_MANY_REDIRECTS, `Maximum (${o.maxRedirs}) redirects followed`);
        info.redirects++;
        info.redirectUrl = '';
        req = redirected(req, res, url);
        if (req.bodyFd !== undefined) rewindBody(c, req.bodyFd);
        continue;
      }
      if (res.status >= 400 && o.fail === 'silent') {
        sys.close(res.fd);
        throw new TransferError(EXIT.HTTP_RETURNED_ERROR, `The requested URL returned error: ${res.status}`);
      }
      readBody(c, o, res, url, out, info, started);
      if (res.status >= 400 && o.fail === 'body') {
        throw new TransferError(EXIT.HTTP_RETURNED_ERROR, `The requested URL returned error: ${res.status}`);
      }
      return;
    }
  } finally {
    if (uploadFd !== null && uploadFd !== 0) sys.close(uploadFd);
    info.totalMs = Date.now() - started;
  }
}

function appendHeaders(c: Cmd, path: string, block: Uint8Array, first: boolean): void {
  if (path === '-') return c.out.write(block);
  const o = new Output(c.sys, path, { append: !first });
  o.write(block);
  o.close();
}

function readBody(c: Cmd, o: Options, res: HttpResponse, url: URL, out: Output, info: WriteOutInfo, started: number): void {
  const sys = c.sys;
  const total = Number(header(res, 'content-length') ?? NaN);
  const progress = o.progress || (!o.silent && out.path !== null && isTty(c, 2)) ? new Progress(sys, total, o.progress) : null;
  const sink = (b: Uint8Array) => out.write(b);
  const decoder = o.compressed && !res.decoded ? bodyDecoder(header(res, 'content-encoding'), sink) : null;
  if (createsOutput(res)) out.touch();
  try {
    for (;;) {
      let chunk: Uint8Array;
      try {
        chunk = sys.read(res.fd);
      } catch (e) {
        throw transferError(e, url, elapsedAt(e, started, o.maxTimeMs), info.sizeDownload);
      }
      if (chunk.byteLength === 0) break;
      info.sizeDownload += chunk.byteLength;
      progress?.update(info.sizeDownload);
      if (decoder) decoder.push(chunk, false);
      else sink(chunk);
    }
    decoder?.push(new Uint8Array(0), true);
    if (Number.isFinite(total) && info.sizeDownload < total && res.status !== 204 && info.method !== 'HEAD') {
      throw new TransferError(EXIT.PARTIAL_FILE, `end of response with ${total - info.sizeDownload} bytes missing`);
    }
  } finally {
    progress?.done();
    sys.close(res.fd);
  }
}

/** A response that makes curl create its output file even when the body is empty. */
const createsOutput = (res: HttpResponse): boolean => res.status < 300 || res.status >= 400;

function isTty(c: Cmd, fd: number): boolean {
  try {
    return c.sys.isatty(fd);
  } catch {
    return false;
  }
}

/** curl's transient errors (for --retry). */
function transient(e: TransferError, o: Options, status: number): boolean {
  if (e.code === EXIT.OPERATION_TIMEDOUT) return true;
  if (e.code === EXIT.COULDNT_CONNECT && o.retryConnRefused && !e.message.includes('network policy')) return true;
  return e.code === EXIT.HTTP_RETURNED_ERROR && [408, 429, 500, 502, 503, 504].includes(status);
}

function remoteName(url: string): string {
  const name = new URL(url).pathname.replace(/.*\//, '');
  if (!name) throw new TransferError(EXIT.WRITE_ERROR, 'Failed writing received data to disk/application');
  return decodeURIComponent(name);
}

const curlApplet = command({ name: 'curl', usage: USAGE, rawArgs: true }, (c) => {
  let parsed;
  try {
    parsed = parseArgs(c.operands, SPEC as never);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    // glibc's wording ("option '--x' requires...", "invalid option -- 'x'") in curl's.
    const m = /option '([^']+)'/.exec(e.message) ?? /-- '(.)'/.exec(e.message);
    const opt = m ? (m[1].startsWith('-') ? m[1] : `-${m[1]}`) : '';
    c.warn(m ? `option ${opt}: ${e.message.includes('requires') ? 'requires parameter' : 'is unknown'}` : e.message);
    c.warn("try 'curl --help' or 'curl --manual' for more information");
    return 2;
  }
  const keys = new Set(parsed.list.map(([k]) => k));
  if (keys.has('h')) return void c.out.write(USAGE);
  if (keys.has('V')) return void c.out.write(`curl ${VERSION} (agentOS) kernel http syscall\nProtocols: http https\nFeatures: libz\n`);
  const urls = [...parsed.operands, ...parsed.list.filter(([k]) => k === 'url').map(([, v]) => v!)];
  let o: Options;
  try {
    o = options(c, parsed.list);
  } catch (e) {
    if (!(e instanceof TransferError)) throw e;
    if (!e.message) return e.code; // already said
    c.warn(e.code === 2 ? e.message : `(${e.code}) ${e.message}`);
    if (e.code === 2) c.warn("try 'curl --help' or 'curl --manual' for more information");
    return e.code;
  }
  if (!urls.length) {
    // With no arguments at all curl only points at --help.
    if (c.operands.length) c.warn('no URL specified!');
    c.warn("try 'curl --help' or 'curl --manual' for more information");
    return 2;
  }
  const outputs = parsed.list.filter(([k]) => k === 'o' || k === 'O');
  let status = 0;
  urls.forEach((raw, i) => {
    const dest = outputs[i];
    let code = 0;
    const info: WriteOutInfo = { res: null, urlEffective: raw, sizeDownload: 0, headerBytes: 0, redirects: 0, redirectUrl: '', totalMs: 0, timeStartMs: 0, method: 'GET', exitCode: 0, errorMsg: '', filename: '' };
    for (let attempt = 0; ; attempt++) {
      let out: Output | null = null;
      try {
        const path = !dest ? null : dest[0] === 'O' ? remoteName(parseUrl(raw).href) : dest[1] === '-' ? null : dest[1]!;
        info.filename = path ?? '';
        out = new Output(c.sys, path, { createDirs: o.createDirs, stdoutWrite: (b) => c.out.write(b) });
        Object.assign(info, { res: null, sizeDownload: 0, headerBytes: 0, redirects: 0, redirectUrl: '' });
        transfer(c, o, raw, out, info);
        code = 0;
        break;
      } catch (e) {
        if (!(e instanceof TransferError)) throw e;
        code = e.code;
        info.errorMsg = e.message;
        if (attempt < o.retries && transient(e, o, info.res?.status ?? 0)) {
          const wait = o.retryDelayMs || 1000 * 2 ** attempt;
          c.out.flush();
          if (!o.silent) c.sys.writeAll(2, `Warning: Problem : ${e.code === EXIT.HTTP_RETURNED_ERROR ? 'HTTP error' : 'timeout'} : Will retry in ${Math.round(wait / 1000)} seconds. ${o.retries - attempt} retries left.\n`);
          c.sys.sleep(wait);
          continue;
        }
        if (!o.silent || o.showError) c.warn(`(${e.code}) ${e.message}`);
        break;
      } finally {
        out?.close();
      }
    }
    info.exitCode = code;
    if (o.writeOut !== null) writeOut(c, o.writeOut, info);
    if (code) status = code;
  });
  return status;
});

export default function main(os: AgentosApi): void {
  os.exit(curlApplet(os, os.argv.slice(1)));
}

/** Time spent when a transfer failed: after a timeout, at least --max-time (the kernel's timer ran for what was left). */
function elapsedAt(e: unknown, started: number, maxTimeMs: number | undefined): number {
  const spent = Date.now() - started;
  return e instanceof SysError && e.errno === Errno.ETIMEDOUT && maxTimeMs ? Math.max(spent, maxTimeMs) : spent;
}
