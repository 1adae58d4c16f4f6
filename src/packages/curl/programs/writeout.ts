// -w/--write-out: curl's %{variable} format after each transfer.

import type { HttpResponse } from '../../../abi/http.js';
import type { Cmd } from '../../../userland/lib/index.js';
import { header } from './http.js';

export interface WriteOutInfo {
  res: HttpResponse | null;
  urlEffective: string;
  sizeDownload: number;
  headerBytes: number;
  redirects: number;
  redirectUrl: string;
  totalMs: number;
  timeStartMs: number;
  method: string;
  exitCode: number;
  errorMsg: string;
  filename: string;
}

const secs = (ms: number) => (ms / 1000).toFixed(6);

function variable(name: string, i: WriteOutInfo): string | null {
  const r = i.res;
  const [ip, port] = r?.remote ? [r.remote.slice(0, r.remote.lastIndexOf(':')), r.remote.slice(r.remote.lastIndexOf(':') + 1)] : ['', '0'];
  switch (name) {
    case 'http_code':
    case 'response_code':
      return String(r?.status ?? 0).padStart(3, '0');
    case 'url_effective':
    case 'url':
      return i.urlEffective;
    case 'size_download':
      return String(i.sizeDownload);
    case 'size_header':
      return String(i.headerBytes);
    case 'content_type':
      return (r && header(r, 'content-type')) ?? '';
    case 'num_redirects':
      return String(i.redirects);
    case 'redirect_url':
      return i.redirectUrl;
    case 'time_total':
      return secs(i.totalMs);
    case 'time_starttransfer':
      return secs(i.timeStartMs);
    case 'speed_download':
      return String(Math.round(i.sizeDownload / Math.max(i.totalMs / 1000, 0.001)));
    case 'method':
      return i.method;
    case 'http_version':
      return r ? r.httpVersion.replace(/\.0$/, '') : '0';
    case 'remote_ip':
      return ip;
    case 'remote_port':
      return port;
    case 'scheme':
      return new URL(i.urlEffective, 'http://x').protocol.slice(0, -1).toUpperCase();
    case 'exitcode':
      return String(i.exitCode);
    case 'errormsg':
      return i.errorMsg;
    case 'filename_effective':
      return i.filename;
    default:
      return null;
  }
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '\\': '\\' };

export function writeOut(c: Cmd, fmt: string, info: WriteOutInfo): void {
  let out = '';
  let fd = 1;
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i];
    if (ch === '\\' && i + 1 < fmt.length && fmt[i + 1] in ESCAPES) {
      out += ESCAPES[fmt[++i]];
    } else if (ch === '%' && fmt[i + 1] === '%') {
      out += '%';
      i++;
    } else if (ch === '%' && fmt.startsWith('%{', i) && fmt.indexOf('}', i) > 0) {
      const end = fmt.indexOf('}', i);
      const name = fmt.slice(i + 2, end);
      i = end;
      if (name === 'stderr' || name === 'stdout') {
        flush(c, fd, out);
        out = '';
        fd = name === 'stderr' ? 2 : 1;
        continue;
      }
      const v = variable(name, info);
      if (v === null) c.warn(`unknown --write-out variable: '${name}'`);
      else out += v;
    } else if (ch === '%' && fmt.startsWith('%header{', i) && fmt.indexOf('}', i) > 0) {
      const end = fmt.indexOf('}', i);
      out += (info.res && header(info.res, fmt.slice(i + 8, end))) ?? '';
      i = end;
    } else out += ch;
  }
  flush(c, fd, out);
}

function flush(c: Cmd, fd: number, text: string): void {
  if (!text) return;
  if (fd === 1) c.out.write(text);
  else {
    c.out.flush();
    c.sys.writeAll(2, text);
  }
}
