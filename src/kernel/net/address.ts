// What an address is: the one classifier both hosts use to keep a guest off
// the host's own machine and network. The kernel classifies the host of every
// URL (an IP literal, or a name that is the loopback by definition) before a
// request leaves; the Node host classifies each address DNS gives it before
// connecting to it. An IP literal reaches the check in the WHATWG URL
// parser's canonical form (decimal, octal, hex and short IPv4 forms are
// already dotted quads; IPv6 is compressed hex), but the parsers here accept
// every spelling that parser and the OS resolver (inet_aton, inet_pton)
// accept, since addresses also come from DNS answers and the host's `hosts`.

/** Public, or the kind of non-public address. */
export type AddressKind = 'public' | 'loopback' | 'unspecified' | 'link-local' | 'private' | 'shared' | 'multicast' | 'reserved';

export interface Classified {
  kind: AddressKind;
  /** The address that decides the kind: the IPv4 one embedded in an IPv6 address, else the address itself. */
  address: string;
}

/** One IPv4 number: decimal, `0x` hex or `0` octal, as the URL parser and inet_aton read it. */
function v4Part(s: string): number {
  if (/^0x[0-9a-f]*$/i.test(s)) return s.length === 2 ? 0 : parseInt(s.slice(2), 16);
  if (/^0[0-7]+$/.test(s)) return parseInt(s.slice(1), 8);
  if (/^(0|[1-9][0-9]*)$/.test(s)) return Number(s);
  return NaN;
}

/** An IPv4 address in any spelling (`127.1`, `2130706433`, `0x7f.1`, `0177.0.0.1`, `127.0.0.1.`) as 4 bytes, or null. */
export function parseIPv4(s: string): number[] | null {
  const parts = s.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length > 4 || parts.some((p) => p === '')) return null;
  const nums = parts.map(v4Part);
  if (nums.some((n) => Number.isNaN(n))) return null;
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return null;
  let v = last;
  nums.forEach((n, i) => (v += n * 256 ** (3 - i)));
  return [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
}

/** An IPv6 address (brackets, a zone `%eth0` and a trailing dotted IPv4 allowed) as 16 bytes, or null. */
export function parseIPv6(s: string): number[] | null {
  let a = s.startsWith('[') && s.endsWith(']') ? s.slice(1, -1) : s;
  a = a.replace(/%.*$/, '');
  if (!a.includes(':')) return null;
  const halves = a.split('::');
  if (halves.length > 2) return null;
  // A trailing IPv4 part may end the address only.
  const groups = (h: string, last: boolean): number[] | null => {
    if (h === '') return [];
    const out: number[] = [];
    const words = h.split(':');
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (last && i === words.length - 1 && w.includes('.')) {
        // Strict dotted decimal here, as in inet_pton and the URL parser.
        if (!/^(0|[1-9]\d{0,2})(\.(0|[1-9]\d{0,2})){3}$/.test(w)) return null;
        const b = w.split('.').map(Number);
        if (b.some((n) => n > 255)) return null;
        out.push((b[0] << 8) | b[1], (b[2] << 8) | b[3]);
      } else if (/^[0-9a-f]{1,4}$/i.test(w)) out.push(parseInt(w, 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0], halves.length === 1);
  const tail = halves.length === 2 ? groups(halves[1], true) : [];
  if (!head || !tail) return null;
  const fill = 8 - head.length - tail.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return null;
  const words = [...head, ...new Array<number>(fill).fill(0), ...tail];
  return words.flatMap((w) => [w >> 8, w & 255]);
}

function v4Kind([a, b, c]: number[]): AddressKind {
  if (a === 0) return 'unspecified'; // 0/8, "this network": Linux connects 0.0.0.0 to the loopback
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && (b & 0xf0) === 16) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 100 && (b & 0xc0) === 64) return 'shared'; // CGNAT, RFC 6598
  if (a >= 224 && a < 240) return 'multicast';
  if (a >= 240) return 'reserved'; // and the broadcast address
  // IETF assignments, documentation, benchmarking (RFC 6890): never a public server.
  if ((a === 192 && b === 0 && (c === 0 || c === 2)) || (a === 198 && (b & 0xfe) === 18) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'reserved';
  return 'public';
}

const v4Text = (b: number[]) => b.join('.');

/** `::ffff:a.b.c.d`: an IPv4 address written as IPv6 (a dual-stack socket reaches the IPv4 one). */
const isMapped = (b: number[]) => b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;

function classifyV4(b: number[]): Classified {
  return { kind: v4Kind(b), address: v4Text(b) };
}

/** An IPv6 address that embeds an IPv4 one is what that IPv4 one is when it is not public. */
function embedding(v4: number[], ifPublic: AddressKind, self: string): Classified {
  const kind = v4Kind(v4);
  return kind === 'public' ? { kind: ifPublic, address: self } : { kind, address: v4Text(v4) };
}

function classifyV6(b: number[], self: string): Classified {
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const w0 = (b[0] << 8) | b[1];
  if (isMapped(b)) return classifyV4(b.slice(12));
  if (zero(0, 15)) return { kind: b[15] === 1 ? 'loopback' : b[15] === 0 ? 'unspecified' : 'reserved', address: self };
  if (zero(0, 12)) return embedding(b.slice(12), 'reserved', self); // ::a.b.c.d, compatible (deprecated)
  if (w0 === 0x64 && b[2] === 0xff && b[3] === 0x9b) {
    if (zero(4, 12)) return embedding(b.slice(12), 'public', self); // 64:ff9b::/96, NAT64
    if (b[4] === 0 && b[5] === 1) return { kind: 'private', address: self }; // 64:ff9b:1::/48, local NAT64
  }
  if (b[0] === 0) return { kind: 'reserved', address: self }; // the rest of ::/8 (SIIT and others)
  if (w0 === 0x2002) return embedding(b.slice(2, 6), 'public', self); // 6to4
  if (w0 === 0x2001 && b[2] === 0 && b[3] === 0) return embedding(b.slice(12).map((x) => x ^ 0xff), 'public', self); // Teredo client
  if (w0 === 0x2001 && b[2] === 0x0d && b[3] === 0xb8) return { kind: 'reserved', address: self }; // documentation
  if (w0 === 0x0100 && zero(2, 8)) return { kind: 'reserved', address: self }; // discard
  if ((b[0] & 0xfe) === 0xfc) return { kind: 'private', address: self }; // unique local
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return { kind: 'link-local', address: self };
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) return { kind: 'private', address: self }; // site-local (deprecated)
  if (b[0] === 0xff) return { kind: 'multicast', address: self };
  return { kind: 'public', address: self };
}

/** An IP address in any spelling, classified; null when the string is not an address (a name). */
export function classifyAddress(s: string): Classified | null {
  const v4 = parseIPv4(s);
  if (v4) return classifyV4(v4);
  const v6 = parseIPv6(s);
  return v6 ? classifyV6(v6, s.replace(/^\[|\]$/g, '').toLowerCase()) : null;
}

/** `localhost`, `*.localhost`, with or without the final dot: the loopback by definition (RFC 6761), whatever DNS says. */
function isLoopbackName(host: string): boolean {
  return /(^|\.)localhost\.?$/i.test(host);
}

/**
 * A URL's host (`URL.hostname`) classified by what it says by itself: an IP
 * literal, or a loopback name. Null for other names: only resolving them says
 * where they lead.
 */
export function classifyHost(host: string): Classified | null {
  if (isLoopbackName(host)) return { kind: 'loopback', address: host };
  return classifyAddress(host);
}

/**
 * The form in which allow entries and requests are compared: the URL
 * parser's host (lower case, IPv4 as a dotted quad, IPv6 compressed), an
 * IPv4-mapped IPv6 address as its IPv4 address (the same socket), and a name
 * without its final dot (`example.com.` is `example.com`).
 */
export function canonicalHost(hostname: string): string {
  const h = hostname.toLowerCase();
  if (h.startsWith('[')) {
    const b = parseIPv6(h);
    return b && isMapped(b) ? v4Text(b.slice(12)) : h;
  }
  return h.endsWith('.') ? h.slice(0, -1) : h;
}
