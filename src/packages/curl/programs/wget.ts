// wget [OPTION]... [URL]...: download files over HTTP(S) through the kernel's
// http syscall, under the VM's network policy. Follows redirects (each hop
// re-checked by the policy), streams each body to its file, and exits with
// GNU Wget's statuses: 1 generic, 3 file I/O, 4 network failure (a policy
// denial too), 5 TLS, 8 server error response.

import { byteString } from '../../../abi/bytes.js';
import { SEEK_SET } from '../../../abi/fcntl.js';
import type { HttpRequest, HttpResponse } from '../../../abi/http.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, tryStat, type Cmd } from '../../../userland/lib/index.js';
import { EXIT, header, isRedirect, locationOf, parseUrl, redirected, TransferError, transferError } from './http.js';
import { Output } from './output.js';
import { INLINE_BODY_MAX, spoolBody } from './spool.js';

const USAGE = `GNU Wget-compatible agentOS wget, a non-interactive network retriever.
Usage: wget [OPTION]... [URL]...

  -V,  --version                   display the version of Wget and exit
  -h,  --help                      print this help
  -q,  --quiet                     quiet (no output)
  -nv, --no-verbose                turn off verboseness, without being quiet
  -O,  --output-document=FILE      write documents to FILE ('-' for stdout)
  -P,  --directory-prefix=PREFIX   save files to PREFIX/..
  -c,  --continue                  resume getting a partially-downloaded file
  -t,  --tries=NUMBER              set number of retries to NUMBER (0 unlimits)
  -T,  --timeout=SECONDS           set the connect and transfer timeout
  -S,  --server-response           print server response
       --spider                    don't download anything
       --header=STRING             insert STRING among the headers
  -U,  --user-agent=AGENT          identify as AGENT instead of Wget/VERSION
       --method=HTTPMethod         use method "HTTPMethod" in the request
       --post-data=STRING          use the POST method; send STRING as the data
       --post-file=FILE            use the POST method; send contents of FILE
       --body-data=STRING          send STRING as data (with --method)
       --max-redirect=NUM          maximum redirections allowed per page (20)
       --no-check-certificate      accepted; no effect (the host verifies TLS)

Requests go through the VM's network policy; see wget(1).
`;

const W = { GENERIC: 1, IO: 3, NETWORK: 4, SSL: 5, SERVER: 8 } as const;
const enc = new TextEncoder();
const CHUNK = 64 * 1024;

interface Options {
  quiet: boolean;
  verbose: boolean;
  output: string | null;
  prefix: string | null;
  cont: boolean;
  tries: number;
  timeoutMs: number;
  serverResponse: boolean;
  spider: boolean;
  headers: [string, string][];
  method: string | null;
  body: Uint8Array | null;
  maxRedirect: number;
}

class Fail {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}

function stamp(): string {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

function parseOptions(c: Cmd): Options {
  const o: Options = {
    quiet: false, verbose: true, output: null, prefix: null, cont: false, tries: 20, timeoutMs: 0, serverResponse: false,
    spider: false, headers: [['User-Agent', 'Wget/1.21.3 (agentOS)'], ['Accept', '*/*'], ['Accept-Encoding', 'identity']], method: null, body: null, maxRedirect: 20,
  };
  const setHeader = (k: string, v: string) => {
    o.headers = o.headers.filter(([n]) => n.toLowerCase() !== k.toLowerCase());
    o.headers.push([k, v]);
  };
  for (const [k, v = ''] of c.all) {
    switch (k) {
      case 'q': o.quiet = true; break;
      case 'nv': o.verbose = false; break;
      case 'O': o.output = v; break;
      case 'P': o.prefix = v; break;
      case 'c': o.cont = true; break;
      case 't': o.tries = /^\d+$/.test(v) ? Number(v) || Infinity : c.fail(`--tries: Invalid number '${v}'.`); break;
      case 'T': o.timeoutMs = /^\d+(\.\d+)?$/.test(v) ? Number(v) * 1000 : c.fail(`--timeout: Invalid time period '${v}'`); break;
      case 'S': o.serverResponse = true; break;
      case 'spider': o.spider = true; break;
      case 'header': {
        const i = v.indexOf(':');
        if (i <= 0) c.fail(`--header: Invalid header '${v}'.`);
        setHeader(v.slice(0, i).trim(), byteString(v.slice(i + 1).trim()));
        break;
      }
      case 'U': setHeader('User-Agent', byteString(v)); break;
      case 'method': o.method = v.toUpperCase(); break;
      case 'post-data': o.method ??= 'POST'; o.body = enc.encode(v); break;
      case 'body-data': o.body = enc.encode(v); break;
      case 'post-file': {
        o.method ??= 'POST';
        try {
          o.body = c.sys.readFile(v);
        } catch {
          c.fail(`Couldn't open ${v}`);
        }
        break;
      }
      case 'max-redirect': o.maxRedirect = Number(v) || 0; break;
    }
  }
  if (o.body && !o.headers.some(([k]) => k.toLowerCase() === 'content-type')) o.headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
  return o;
}

/** The local name for a URL: its last path segment or index.html, never clobbering (name.1, name.2...). */
function localName(c: Cmd, o: Options, url: URL): string {
  const base = decodeURIComponent(url.pathname.replace(/.*\//, '')) || 'index.html';
  const path = o.prefix ? `${o.prefix.replace(/\/$/, '')}/${base}` : base;
  if (o.cont || !tryStat(c.sys, path)) return path;
  for (let n = 1; ; n++) if (!tryStat(c.sys, `${path}.${n}`)) return `${path}.${n}`;
}

function say(c: Cmd, o: Options, text: string, always = false): void {
  if (o.quiet || (!o.verbose && !always)) return;
  c.out.flush();
  c.sys.writeAll(2, text);
}

/** One hop: the request, its report lines, the response (or a Fail). */
function request(c: Cmd, o: Options, req: HttpRequest): HttpResponse {
  const url = new URL(req.url);
  say(c, o, `--${stamp()}--  ${req.url}\n`);
  const started = Date.now();
  let res: HttpResponse;
  try {
    res = c.sys.http({ ...req, timeoutMs: o.timeoutMs || undefined, connectTimeoutMs: o.timeoutMs || undefined });
  } catch (e) {
    const t = transferError(e, url, Date.now() - started, 0);
    if (t.code === EXIT.COULDNT_RESOLVE_HOST) {
      say(c, o, `Resolving ${url.hostname} (${url.hostname})... failed: Name or service not known.\n`);
      throw new Fail(W.NETWORK, `unable to resolve host address ‘${url.hostname}’`);
    }
    if (t.code === EXIT.COULDNT_CONNECT && !t.message.includes('network policy')) {
      say(c, o, `Connecting to ${url.host}... failed: Connection refused.\n`);
      throw new Fail(W.NETWORK, '');
    }
    if (t.code === EXIT.SSL_CACERT) throw new Fail(W.SSL, t.message);
    throw new Fail(W.NETWORK, t.message);
  }
  say(c, o, `Connecting to ${url.host}... connected.\nHTTP request sent, awaiting response... `);
  if (o.serverResponse) {
    const lines = [`HTTP/${res.httpVersion} ${res.status} ${res.statusText}`, ...res.headers.map(([k, v]) => `${k}: ${v}`)];
    say(c, o, `\n${lines.map((l) => `  ${l}\n`).join('')}`, true);
  } else say(c, o, `${res.status} ${res.statusText}\n`);
  return res;
}

function spooled(c: Cmd, body: Uint8Array): number {
  try {
    return spoolBody(c, body);
  } catch (e) {
    if (e instanceof TransferError) throw new Fail(W.IO, e.message);
    throw e;
  }
}

/** A body too big to pass inline is sent from a spooled file, kept open for the whole download. */
function download(c: Cmd, o: Options, raw: string): void {
  const bodyFd = o.body && o.body.byteLength > INLINE_BODY_MAX ? spooled(c, o.body) : undefined;
  try {
    fetchOne(c, o, raw, bodyFd);
  } finally {
    if (bodyFd !== undefined) c.sys.close(bodyFd);
  }
}

function fetchOne(c: Cmd, o: Options, raw: string, bodyFd: number | undefined): void {
  let url: URL;
  try {
    url = parseUrl(raw);
  } catch (e) {
    if (!(e instanceof TransferError)) throw e;
    throw new Fail(W.GENERIC, `${raw}: Invalid URL`);
  }
  const path = o.output === '-' ? null : (o.output ?? localName(c, o, url));
  const have = o.cont && path ? (tryStat(c.sys, path)?.size ?? 0) : 0;
  let req: HttpRequest = {
    method: o.method ?? (o.spider ? 'HEAD' : 'GET'),
    url: url.href,
    headers: have > 0 ? [...o.headers, ['Range', `bytes=${have}-`]] : o.headers,
  };
  if (bodyFd !== undefined) req = { ...req, bodyFd, headers: [...req.headers, ['Content-Length', String(o.body!.byteLength)]] };
  else if (o.body) req.body = o.body;
  let res: HttpResponse;
  for (let hops = 0; ; hops++) {
    res = request(c, o, req);
    if (!isRedirect(res)) break;
    c.sys.close(res.fd);
    if (hops + 1 > o.maxRedirect) throw new Fail(W.SERVER, `${o.maxRedirect} redirections exceeded.`);
    say(c, o, `Location: ${locationOf(res)} [following]\n`);
    req = redirected(req, res, new URL(req.url));
    if (req.bodyFd !== undefined) c.sys.lseek(req.bodyFd, 0, SEEK_SET);
  }
  if (res.status === 416 && have > 0) {
    c.sys.close(res.fd);
    say(c, o, '\n    The file is already fully retrieved; nothing to do.\n\n');
    return;
  }
  if (res.status >= 400) {
    c.sys.close(res.fd);
    if (o.spider) throw new Fail(W.SERVER, 'Remote file does not exist -- broken link!!!');
    say(c, o, `${stamp()} ERROR ${res.status}: ${res.statusText}.\n\n`, true);
    throw new Fail(W.SERVER, '');
  }
  const length = header(res, 'content-length');
  const type = header(res, 'content-type');
  say(c, o, `Length: ${length ?? 'unspecified'}${type ? ` [${type}]` : ''}\n`);
  if (o.spider) {
    c.sys.close(res.fd);
    say(c, o, 'Remote file exists.\n\n');
    return;
  }
  const append = res.status === 206 && have > 0;
  say(c, o, `${path === null ? 'Saving to: ‘STDOUT’' : `Saving to: ‘${path}’`}\n\n`);
  const out = new Output(c.sys, path, { append, stdoutWrite: (b) => c.out.write(b) });
  const started = Date.now();
  let got = 0;
  try {
    out.touch();
    for (;;) {
      let chunk: Uint8Array;
      try {
        chunk = c.sys.read(res.fd, CHUNK);
      } catch (e) {
        const t = transferError(e, new URL(req.url), Date.now() - started, got);
        throw new Fail(W.NETWORK, `Read error at byte ${got} (${t.message}).`);
      }
      if (chunk.byteLength === 0) break;
      got += chunk.byteLength;
      out.write(chunk);
    }
  } catch (e) {
    if (e instanceof TransferError) throw new Fail(W.IO, `${path}: ${e.message}`);
    throw e;
  } finally {
    out.close();
    c.sys.close(res.fd);
  }
  const secs = Math.max((Date.now() - started) / 1000, 0.001);
  const total = append ? have + got : got;
  const shown = path === null ? '-' : `‘${path}’`;
  say(c, o, `${stamp()} (${(got / secs / 1e6).toFixed(2)} MB/s) - ${shown} saved [${total}${length ? `/${append ? have + Number(length) : length}` : ''}]\n\n`);
  if (!o.verbose && !o.quiet) say(c, o, `${stamp()} URL:${req.url} [${total}] -> ${shown === '-' ? '"-"' : `"${path}"`} [1]\n`, true);
}

const wgetApplet = command(
  {
    name: 'wget',
    usage: USAGE,
    short: 'qO:P:ct:T:SU:hV',
    long: {
      quiet: ['q', 'none'], 'no-verbose': ['nv', 'none'], 'output-document': ['O', 'required'],
      'directory-prefix': ['P', 'required'], continue: ['c', 'none'], tries: ['t', 'required'], timeout: ['T', 'required'],
      'server-response': ['S', 'none'], spider: ['spider', 'none'], header: ['header', 'required'], 'user-agent': ['U', 'required'],
      method: ['method', 'required'], 'post-data': ['post-data', 'required'], 'post-file': ['post-file', 'required'],
      'body-data': ['body-data', 'required'], 'max-redirect': ['max-redirect', 'required'],
      'no-check-certificate': ['no-check-certificate', 'none'], help: ['--help', 'none'], version: ['--version', 'none'],
    },
  },
  (c) => {
    if (c.has('h')) return void c.out.write(USAGE);
    if (c.has('V')) return void c.out.write('GNU Wget 1.21.3 compatible (agentOS wget 0.1.0)\n');
    const o = parseOptions(c);
    if (!c.operands.length) {
      c.warn('missing URL');
      c.sys.writeAll(2, "Usage: wget [OPTION]... [URL]...\n\nTry `wget --help' for more options.\n");
      return 1;
    }
    if (o.spider) say(c, o, 'Spider mode enabled. Check if remote file exists.\n');
    let status = 0;
    for (const raw of c.operands) {
      for (let attempt = 1; ; attempt++) {
        try {
          download(c, o, raw);
          break;
        } catch (e) {
          if (!(e instanceof Fail)) throw e;
          const retry = e.message.startsWith('Read error') || e.message.includes('timed out');
          if (retry && attempt < o.tries) {
            say(c, o, `${e.message} Retrying.\n\n`);
            continue;
          }
          if (e.message && !o.quiet) {
            c.out.flush();
            c.sys.writeAll(2, e.status === W.SERVER || e.message.startsWith('Read error') || e.message.startsWith('Remote') ? `${e.message}\n` : `wget: ${e.message}\n`);
          }
          status = status === 0 ? e.status : Math.min(status, e.status);
          break;
        }
      }
    }
    return status;
  },
);

export default function main(os: AgentosApi): void {
  // -nv is two letters after one dash, which getopt would read as -n -v.
  os.exit(wgetApplet(os, os.argv.slice(1).map((a) => (a === '-nv' ? '--no-verbose' : a))));
}
