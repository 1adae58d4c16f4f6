// ss [-atuxlnH46]: list the VM's sockets, as iproute2's ss does, from
// /proc/net/{tcp,tcp6,udp,udp6,unix} (the kernel's sockets, decision 0064).
// Without -a or -l only connected sockets are shown; -l shows listening (and
// unconnected) ones only. Names are never resolved (-n is the default).

import { SysError, strerror } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { parseArgs, UsageError } from '../../../userland/lib/args.js';

const USAGE = `Usage: ss [ OPTIONS ]
   -h, --help          this message
   -n, --numeric       don't resolve service names
   -a, --all           display all sockets
   -l, --listening     display listening sockets
   -H, --no-header     Suppress header line
   -4, --ipv4          display only IP version 4 sockets
   -6, --ipv6          display only IP version 6 sockets
   -t, --tcp           display only TCP sockets
   -u, --udp           display only UDP sockets
   -x, --unix          display only Unix domain sockets
`;

interface Row {
  netid: string;
  state: string;
  recvQ: number;
  sendQ: number;
  local: string;
  peer: string;
  listening: boolean;
}

const TCP_STATES: Record<number, string> = { 1: 'ESTAB', 7: 'UNCONN', 10: 'LISTEN' };

/** An address in /proc/net's hex: IPv4 one little-endian word; IPv6 four. */
function hexAddress(hex: string): string {
  const bytes: number[] = [];
  for (let w = 0; w < hex.length; w += 8) {
    const word = hex.slice(w, w + 8);
    for (let i = 6; i >= 0; i -= 2) bytes.push(parseInt(word.slice(i, i + 2), 16));
  }
  if (bytes.length === 4) return bytes.join('.');
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255) return `[::ffff:${bytes.slice(12).join('.')}]`;
  const words = Array.from({ length: 8 }, (_, i) => (bytes[2 * i] << 8) | bytes[2 * i + 1]);
  let best = -1, len = 1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > len) [best, len] = [i, j - i];
  }
  const h = (ws: number[]) => ws.map((x) => x.toString(16)).join(':');
  return `[${best < 0 ? h(words) : `${h(words.slice(0, best))}::${h(words.slice(best + len))}`}]`;
}

function endpoint(field: string, wildcard: boolean): string {
  const [hex, port] = field.split(':');
  const addr = hexAddress(hex);
  const any = /^(0\.0\.0\.0|\[::\])$/.test(addr);
  const p = parseInt(port, 16);
  return `${any ? '*' : addr}:${p === 0 && wildcard ? '*' : p}`;
}

function inetRows(text: string, netid: string): Row[] {
  return text.split('\n').slice(1).filter(Boolean).map((line) => {
    const f = line.trim().split(/\s+/);
    const st = parseInt(f[3], 16);
    const [tx, rx] = f[4].split(':').map((x) => parseInt(x, 16));
    return { netid, state: TCP_STATES[st] ?? 'UNKNOWN', recvQ: rx, sendQ: tx, local: endpoint(f[1], false), peer: endpoint(f[2], true), listening: st !== 1 };
  });
}

function unixRows(text: string): Row[] {
  return text.split('\n').slice(1).filter(Boolean).map((line) => {
    const f = line.trim().split(/\s+/);
    const listening = f[3] === '00010000';
    const state = listening ? 'LISTEN' : f[5] === '03' ? 'ESTAB' : 'UNCONN';
    return { netid: f[4] === '0002' ? 'u_dgr' : 'u_str', state, recvQ: 0, sendQ: 0, local: `${f[7] ?? '*'} ${f[6]}`, peer: '* 0', listening: state !== 'ESTAB' };
  });
}

export default function main(os: AgentosApi): void {
  let keys: Set<string>;
  try {
    const parsed = parseArgs(os.argv.slice(1), {
      short: 'hnalH46tuxe',
      long: { help: ['h', 'none'], numeric: ['n', 'none'], all: ['a', 'none'], listening: ['l', 'none'], 'no-header': ['H', 'none'], ipv4: ['4', 'none'], ipv6: ['6', 'none'], tcp: ['t', 'none'], udp: ['u', 'none'], unix: ['x', 'none'] },
    });
    if (parsed.operands.length) throw new UsageError(`filters are not supported: ${parsed.operands.join(' ')}`);
    keys = new Set(parsed.list.map(([k]) => k));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    os.eprint(`ss: ${e.message}\n${USAGE}`);
    os.exit(1);
  }
  if (keys.has('h')) {
    os.print(USAGE);
    os.exit(0);
  }
  const anyType = !keys.has('t') && !keys.has('u') && !keys.has('x');
  const v4 = !keys.has('6') || keys.has('4');
  const v6 = !keys.has('4') || keys.has('6');
  const read = (name: string): string => {
    try {
      return new TextDecoder().decode(os.sys.readFile(`/proc/net/${name}`));
    } catch (e) {
      if (e instanceof SysError) {
        os.eprint(`ss: /proc/net/${name}: ${strerror(e.errno)}\n`);
        os.exit(1);
      }
      throw e;
    }
  };
  let rows: Row[] = [];
  if (anyType || keys.has('t')) rows.push(...(v4 ? inetRows(read('tcp'), 'tcp') : []), ...(v6 ? inetRows(read('tcp6'), 'tcp') : []));
  if (anyType || keys.has('u')) rows.push(...(v4 ? inetRows(read('udp'), 'udp') : []), ...(v6 ? inetRows(read('udp6'), 'udp') : []));
  if ((anyType && !keys.has('4') && !keys.has('6')) || keys.has('x')) rows.push(...unixRows(read('unix')));
  if (!keys.has('a')) rows = rows.filter((r) => r.listening === keys.has('l'));
  const table = rows.map((r) => [r.netid, r.state, String(r.recvQ), String(r.sendQ), r.local, r.peer]);
  // One type asked for: no Netid column, as ss prints it.
  const showNetid = ['t', 'u', 'x'].filter((k) => keys.has(k)).length !== 1;
  const head = ['Netid', 'State', 'Recv-Q', 'Send-Q', 'Local Address:Port', 'Peer Address:Port'];
  const all = keys.has('H') ? table : [head, ...table];
  const cols = showNetid ? [0, 1, 2, 3, 4, 5] : [1, 2, 3, 4, 5];
  const width = cols.map((c) => Math.max(...all.map((r) => r[c].length)));
  let out = '';
  for (const r of all) out += cols.map((c, i) => (c >= 2 && c <= 4 ? r[c].padStart(width[i]) : r[c].padEnd(width[i]))).join(' ').trimEnd() + '\n';
  os.print(out);
}
