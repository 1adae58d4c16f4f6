// jq's regular expressions (Oniguruma, Perl syntax) on JavaScript RegExp:
// the pattern is translated (\A \z \Z, `$` also before a final newline,
// POSIX bracket classes, (?i) at the start, extended mode `x`), the flags
// mapped (g i x n s p l; p makes `.` match newlines), and matches reported
// as jq does, with offsets and lengths in code points.

import { describe } from './ops.js';
import { err, type JObject, type Json } from './value.js';
import { POSIX_CLASSES_WORD as POSIX } from '../../../../common/posix-classes.js';

export interface Compiled {
  re: RegExp;
  global: boolean;
  skipEmpty: boolean;
  /** Name of each capture group (null for unnamed), in order. */
  names: (string | null)[];
}


const cache = new Map<string, Compiled>();

export function compileRegex(re: Json, flags: Json): Compiled {
  if (typeof re !== 'string') throw err(`${describe(re)} cannot be matched, as it is not a string`);
  if (flags !== null && typeof flags !== 'string') throw err(`${describe(flags)} is not a string`);
  const key = `${flags ?? ''}\u0000${re}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let js = '';
  let global = false;
  let skipEmpty = false;
  let extended = false;
  for (const c of flags ?? '') {
    switch (c) {
      case 'g':
        global = true;
        break;
      case 'i':
        if (!js.includes('i')) js += 'i';
        break;
      case 'x':
        extended = true;
        break;
      case 'n':
        skipEmpty = true;
        break;
      case 'p':
        if (!js.includes('s')) js += 's';
        break;
      case 's':
      case 'l':
        break;
      default:
        throw err(`${flags} is not a valid modifier string`);
    }
  }
  const { source, inlineFlags } = translate(re, extended);
  for (const c of inlineFlags) if (!js.includes(c)) js += c;
  let compiled: RegExp;
  try {
    compiled = new RegExp(source, js + 'gdu');
  } catch {
    try {
      compiled = new RegExp(source, js + 'gd');
    } catch (e) {
      throw err(`${re} (at offset 0) is not a valid regex: ${(e as Error).message}`);
    }
  }
  const c: Compiled = { re: compiled, global, skipEmpty, names: groupNames(re) };
  cache.set(key, c);
  return c;
}

/** Oniguruma syntax → JavaScript syntax. */
function translate(re: string, extended: boolean): { source: string; inlineFlags: string } {
  let out = '';
  let inlineFlags = '';
  let i = 0;
  const m = /^\(\?([imsx]+)\)/.exec(re);
  if (m) {
    if (m[1].includes('i')) inlineFlags += 'i';
    if (m[1].includes('m')) inlineFlags += 's';
    if (m[1].includes('x')) extended = true;
    i = m[0].length;
  }
  let inClass = false;
  while (i < re.length) {
    const c = re[i];
    if (c === '\\') {
      const e = re[i + 1] ?? '';
      if (e === 'A' && !inClass) out += '^';
      else if (e === 'z' && !inClass) out += '$';
      else if (e === 'Z' && !inClass) out += '(?=\\n?$)';
      else if (e === 'h') out += inClass ? '0-9a-fA-F' : '[0-9a-fA-F]';
      else if (e === 'H' && !inClass) out += '[^0-9a-fA-F]';
      else out += c + e;
      i += 2;
      continue;
    }
    if (inClass) {
      const pm = /^\[:(\^?)([a-z]+):\]/.exec(re.slice(i));
      if (pm && POSIX[pm[2]] && !pm[1]) {
        out += POSIX[pm[2]];
        i += pm[0].length;
        continue;
      }
      if (c === ']') inClass = false;
      out += c;
      i++;
      continue;
    }
    if (extended && /\s/.test(c)) {
      i++;
      continue;
    }
    if (extended && c === '#') {
      while (i < re.length && re[i] !== '\n') i++;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      i++;
      if (re[i] === '^') out += re[i++];
      if (re[i] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '$') out += '(?=\\n?$)';
    else if (c === '(' && re.startsWith('(?P<', i)) {
      out += '(?<';
      i += 4;
      continue;
    } else if (c === '(' && re.startsWith('(?>', i)) {
      out += '(?:';
      i += 3;
      continue;
    } else if ((c === '+' || c === '?') && /[*+?}]/.test(re[i - 1] ?? '') && re[i - 2] !== '\\') {
      // Possessive quantifiers have no JavaScript form; lazy `?` is kept.
      if (c === '+') {
        i++;
        continue;
      }
      out += c;
    } else out += c;
    i++;
  }
  return { source: out, inlineFlags };
}

/** Capture group names in order of their opening parenthesis. */
function groupNames(re: string): (string | null)[] {
  const names: (string | null)[] = [];
  let inClass = false;
  for (let i = 0; i < re.length; i++) {
    const c = re[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (re[i + 1] === '^') i++;
      if (re[i + 1] === ']') i++;
      continue;
    }
    if (c !== '(') continue;
    if (re[i + 1] !== '?') names.push(null);
    else {
      const m = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(re.slice(i));
      if (m) names.push(m[1]);
    }
  }
  return names;
}

/** Code point index of a UTF-16 index (counting forward from a known pair). */
class CpIndex {
  private u = 0;
  private cp = 0;
  constructor(private readonly s: string) {}
  at(u: number): number {
    if (u < this.u) {
      this.u = 0;
      this.cp = 0;
    }
    const s = this.s;
    while (this.u < u) {
      const c = s.charCodeAt(this.u);
      this.u += c >= 0xd800 && c <= 0xdbff && this.u + 1 < s.length ? 2 : 1;
      this.cp++;
    }
    return this.cp;
  }
}

/** Every match as jq's match objects (all of them with the g flag). */
export function matches(s: Json, c: Compiled): JObject[] {
  if (typeof s !== 'string') throw err(`${describe(s)} cannot be matched, as it is not a string`);
  const out: JObject[] = [];
  const re = c.re;
  const idx = new CpIndex(s);
  let start = 0;
  while (start <= s.length) {
    re.lastIndex = start;
    const m = re.exec(s);
    if (!m) break;
    const begin = m.index;
    const end = begin + m[0].length;
    if (!(c.skipEmpty && begin === end)) {
      out.push(matchObject(m, begin, end, idx, c.names));
      if (!c.global) break;
    }
    if (begin === end) {
      // jq restarts one character after where it searched from.
      const ch = s.charCodeAt(start);
      start += ch >= 0xd800 && ch <= 0xdbff ? 2 : 1;
    } else start = end;
  }
  return out;
}

function matchObject(m: RegExpExecArray, begin: number, end: number, idx: CpIndex, names: (string | null)[]): JObject {
  const off = idx.at(begin);
  const o: JObject = new Map<string, Json>([
    ['offset', off],
    ['length', idx.at(end) - off],
    ['string', m[0]],
  ]);
  const caps: Json[] = [];
  const ind = m.indices!;
  for (let g = 1; g < m.length; g++) {
    const name = names[g - 1] ?? null;
    const pos = ind[g];
    if (pos === undefined || m[g] === undefined) {
      caps.push(
        new Map<string, Json>([
          ['offset', -1],
          ['string', null],
          ['length', 0],
          ['name', name],
        ]),
      );
    } else {
      const co = idx.at(pos[0]);
      caps.push(
        new Map<string, Json>([
          ['offset', co],
          ['length', idx.at(pos[1]) - co],
          ['string', m[g]],
          ['name', name],
        ]),
      );
    }
  }
  o.set('captures', caps);
  return o;
}

/** The capture object (named groups only) of a match, for capture and sub. */
export function captureObject(m: JObject): JObject {
  const o: JObject = new Map();
  for (const cap of m.get('captures') as JObject[]) {
    const name = cap.get('name');
    if (typeof name === 'string') o.set(name, cap.get('string') ?? null);
  }
  return o;
}
