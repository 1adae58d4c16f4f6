// gzip -l: GNU gzip 1.12 decompresses each file to list it (so sizes are
// right past 4 GiB), then prints the whole file's compressed size and the
// last member's uncompressed size and CRC; a heading before the first line
// and a totals line when several files were named. A file with anything
// after its members is reported and not listed.

import { isReg } from '../../../abi/stat.js';
import { baseName } from '../../../userland/lib/fs.js';
import { ratio, type Gz } from './context.js';
import { joinDir } from './names.js';
import { decompress, type Input } from './codec.js';

const W = 19;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** List one file; `first` holds the bytes already read from it (the header). -N shows the stored name. */
export function listFile(g: Gz, input: Input, first: Uint8Array, name: string): void {
  const dec = decompress(g, input, first, null);
  if (!dec || dec.tail !== 'none') return;
  const stored = dec.first?.name;
  const shownName = g.opts.noName === false && stored ? joinDir(name, baseName(stored)) : name;
  const o = g.opts;
  const l = g.list;
  if (!l.shown) {
    l.shown = true;
    if (o.verbose) g.out.write('method  crc     date  time  ');
    if (!o.quiet) g.out.write(`${'compressed'.padStart(W)} ${'uncompressed'.padStart(W)}  ratio uncompressed_name\n`);
  }
  let line = '';
  if (o.verbose) {
    const d = new Date(stamp(g, input, dec.first?.mtime ?? 0));
    const hm = `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
    line += `defla ${dec.lastCrc.toString(16).padStart(8, '0')} ${MONTHS[d.getUTCMonth()]}${String(d.getUTCDate()).padStart(3)} ${hm} `;
  }
  const [size, usize] = [dec.bytesIn, dec.lastSize];
  l.headerBytes = dec.overhead;
  l.totalIn += size;
  l.totalOut += usize;
  line += `${String(size).padStart(W)} ${String(usize).padStart(W)} ${ratio(usize - (size - l.headerBytes), usize)} ${shownName}\n`;
  g.out.write(line);
}

/** The time shown: the file's own mtime (0 for stdin), or with -N the one stored in the header, if any. */
function stamp(g: Gz, input: Input, stored: number): number {
  if (g.opts.noName === false && stored) return stored * 1000;
  return isReg(input.st.mode) ? Math.floor(input.st.mtimeMs / 1000) * 1000 : 0;
}

export function listTotals(g: Gz): void {
  const l = g.list;
  if (l.totalIn <= 0 || l.totalOut <= 0) return;
  let line = g.opts.verbose ? ' '.repeat(28) : '';
  line += `${String(l.totalIn).padStart(W)} ${String(l.totalOut).padStart(W)} `;
  g.out.write(`${line}${ratio(l.totalOut - (l.totalIn - l.headerBytes), l.totalOut)} (totals)\n`);
}
