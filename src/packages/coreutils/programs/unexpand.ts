// unexpand [-a] [--first-only] [-t N|LIST] [FILE]...: convert blanks to tabs
// (streams, line by line; every byte is one column, as in GNU).

import { command, forEachInput, lines, quote, type Cmd } from '../../../userland/lib/index.js';
import { bin, str } from './text.js';

const USAGE = `Usage: unexpand [OPTION]... [FILE]...
Convert blanks in each FILE to tabs, writing to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -a, --all        convert all blanks, instead of just initial blanks
      --first-only  convert only leading sequences of blanks (overrides -a)
  -t, --tabs=N     have tabs N characters apart instead of 8 (enables -a)
  -t, --tabs=LIST  use comma separated list of tab positions.
                     The last specified position can be prefixed with '/'
                     to specify a tab size to use after the last
                     explicitly specified tab stop.  Also a prefix of '+'
                     can be used to align remaining tab stops relative to
                     the last specified tab stop instead of the first column
      --help     display this help and exit
      --version  output version information and exit
`;

/** The next tab stop after a column, or null past the last one. */
type NextStop = (col: number) => number | null;

/** -t N, -t LIST, with '/N' (every N after the list) or '+N' (every N from the last stop) at the end. */
function tabStops(c: Cmd, specs: string[]): NextStop {
  const items = specs.join(',').split(/[ ,]/).filter((s) => s !== '');
  const stops: number[] = [];
  let extend = 0;
  let increment = 0;
  items.forEach((item, i) => {
    const m = /^([/+]?)(\d+)$/.exec(item);
    if (!m) {
      const ok = /^[/+]?\d*/.exec(item)![0].length;
      return c.fail(`tab size contains invalid character(s): ${quote(item.slice(ok))}`);
    }
    if (m[1] && i !== items.length - 1) c.fail(`'${m[1]}' specifier only allowed with the last value`);
    const n = Number(m[2]);
    if (m[1] === '/') extend = n;
    else if (m[1] === '+') increment = n;
    else {
      if (n === 0) c.fail('tab size cannot be 0');
      if (stops.length && n <= stops[stops.length - 1]) c.fail('tab sizes must be ascending');
      stops.push(n);
    }
  });
  // One size alone (or only '/N' / '+N') is a repeating width.
  const single = stops.length === 1 && !extend && !increment ? stops[0] : stops.length === 0 ? extend || increment || 8 : 0;
  if (single) return (col) => col - (col % single) + single;
  const last = stops[stops.length - 1];
  return (col) => {
    const hit = stops.find((s) => s > col);
    if (hit !== undefined) return hit;
    if (extend) return col - (col % extend) + extend;
    if (increment) return last + (Math.floor((col - last) / increment) + 1) * increment;
    return null;
  };
}

export const unexpand = command(
  {
    name: 'unexpand',
    usage: USAGE,
    short: 'at:0123456789',
    long: { all: ['a', 'none'], 'first-only': ['f', 'none'], tabs: ['t', 'required'] },
  },
  (c) => {
    // The obsolete -N form (-4, -4,8 is not possible: digits only) joins the -t list.
    const specs: string[] = [];
    let digits = '';
    for (const [k, v] of c.all) {
      if (k === 't') specs.push(v!);
      else if (/\d/.test(k)) digits += k;
    }
    if (digits) specs.push(digits);
    const next = tabStops(c, specs);
    const all = !c.has('f') && (c.has('a') || specs.length > 0);
    forEachInput(c, c.operands, (fd) => {
      for (const l of lines(c.sys, fd)) c.out.write(bin(convert(str(l), next, all)));
    });
  },
);

/**
 * One line. Blanks are held back until it is known whether they reach a tab
 * stop: a run reaching one becomes a tab; a lone space reaching one stays a
 * space unless more blanks follow it.
 */
function convert(line: string, next: NextStop, all: boolean): string {
  let out = '';
  let col = 0;
  let active = true;
  let pending = '';
  let loneAtStop = false;
  let prevBlank = true; // a line starts as if after a blank, so a lone space at column 0 counts as a run
  const flush = () => {
    if (pending.length > 1 && loneAtStop) pending = '\t' + pending.slice(1);
    out += pending;
    pending = '';
    loneAtStop = false;
  };
  for (const ch of line) {
    if (!active) {
      out += ch;
      continue;
    }
    const blank = ch === ' ' || ch === '\t';
    let emit = ch;
    if (blank) {
      const stop = next(col);
      if (stop === null) active = false;
      else if (ch === '\t') {
        col = stop;
        // Held blanks vanish into the tab, except a lone space already at a stop.
        pending = loneAtStop ? '\t' : '';
      } else {
        col++;
        if (!(prevBlank && col === stop)) {
          if (col === stop) loneAtStop = true;
          pending += ch;
          prevBlank = true;
          continue;
        }
        emit = '\t';
        pending = loneAtStop ? '\t' : '';
      }
    } else if (ch === '\b') col = Math.max(0, col - 1);
    else col++;
    flush();
    prevBlank = blank;
    if (!all && !blank) active = false;
    out += emit;
  }
  flush();
  return out;
}
