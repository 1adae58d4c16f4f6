// /proc/net/{tcp,tcp6,udp,udp6,unix}: the kernel's sockets in Linux's
// formats, so `ss`, `netstat` and scripts that read them work unchanged.

import { AF_INET, AF_INET6, AF_UNIX, SOCK_STREAM } from '../../abi/socket.js';
import { isV4 } from './address.js';
import type { Socket } from './socket.js';
import { StreamSocket } from './stream.js';
import type { SocketTable } from './table.js';

export type ProcNetFile = 'tcp' | 'tcp6' | 'udp' | 'udp6' | 'unix';

const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, '0');

/** An IPv4 address as Linux prints it: the 32-bit word in the host's (little-endian) order. */
function v4Hex(ip: string): string {
  const b = ip.split('.').map(Number);
  return b.reverse().map((x) => hex(x, 2)).join('');
}

/** An IPv6 address: four 32-bit words, each little-endian. */
function v6Hex(ip: string): string {
  let words: number[];
  if (isV4(ip)) {
    const [a, b, c, d] = ip.split('.').map(Number);
    words = [0, 0, 0, 0, 0, 0xffff, (a << 8) | b, (c << 8) | d];
  } else {
    const [head, tail] = ip.split('::');
    const h = head ? head.split(':').map((x) => parseInt(x, 16)) : [];
    const t = tail ? tail.split(':').map((x) => parseInt(x, 16)) : [];
    words = tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  }
  const bytes = words.flatMap((w) => [w >> 8, w & 255]);
  let out = '';
  for (let i = 0; i < 16; i += 4) out += bytes.slice(i, i + 4).reverse().map((x) => hex(x, 2)).join('');
  return out;
}

const ipOf = (address: string) => address.replace(/^::ffff:/, '');

function inetHex(s: Socket, address: string, port: number): string {
  return `${s.family === AF_INET ? v4Hex(ipOf(address)) : v6Hex(ipOf(address))}:${hex(port, 4)}`;
}

/** TCP states as Linux numbers them: 01 ESTABLISHED, 07 CLOSE, 0A LISTEN. */
function tcpState(s: Socket): number {
  if (s instanceof StreamSocket) return s.state === 'listening' ? 0x0a : s.state === 'connected' ? 0x01 : 0x07;
  return s.peerName() ? 0x01 : 0x07;
}

function inetLines(table: SocketTable, family: number, stream: boolean): string {
  const head = family === AF_INET
    ? '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n'
    : '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
  let out = head;
  let i = 0;
  for (const s of table.all) {
    if (s.family !== family || (s.type === SOCK_STREAM) !== stream) continue;
    const local = s.name();
    const peer = s.peerName() ?? { address: family === AF_INET ? '0.0.0.0' : '::', port: 0 };
    const [tx, rx] = s.queued();
    out += `${String(i++).padStart(4)}: ${inetHex(s, local.address, local.port)} ${inetHex(s, peer.address, peer.port)} ${hex(tcpState(s), 2)} ${hex(tx, 8)}:${hex(rx, 8)} 00:00000000 00000000 ${String(s.inode.uid).padStart(5)}        0 ${s.inode.ino} 1 0000000000000000 100 0 0 10 0\n`;
  }
  return out;
}

function unixLines(table: SocketTable): string {
  let out = 'Num       RefCount Protocol Flags    Type St Inode Path\n';
  for (const s of table.all) {
    if (s.family !== AF_UNIX) continue;
    const listening = s instanceof StreamSocket && s.state === 'listening';
    const st = s.peerName() ? 3 : 1;
    const path = s.local?.address ? ` ${s.local.address.replace(/^\0/, '@')}` : '';
    out += `${hex(s.inode.ino, 16).toLowerCase()}: 00000002 00000000 ${listening ? '00010000' : '00000000'} ${hex(s.type, 4)} ${hex(st, 2)} ${s.inode.ino}${path}\n`;
  }
  return out;
}

export function procNet(table: SocketTable, file: ProcNetFile): string {
  switch (file) {
    case 'tcp':
      return inetLines(table, AF_INET, true);
    case 'tcp6':
      return inetLines(table, AF_INET6, true);
    case 'udp':
      return inetLines(table, AF_INET, false);
    case 'udp6':
      return inetLines(table, AF_INET6, false);
    case 'unix':
      return unixLines(table);
  }
}
