// Commit formatting for log and show: the built-in formats (oneline, short,
// medium, full, fuller, raw) and format strings with git's placeholders.

import type { Decorations } from './decorate.js';
import { formatDate, type DateMode } from './date.js';
import { bodyOf, subjectOf } from './message.js';
import type { Commit, Ident } from './objects.js';

export type Builtin = 'oneline' | 'short' | 'medium' | 'full' | 'fuller' | 'raw' | 'reference' | 'email';

export interface Pretty {
  builtin: Builtin | null;
  /** For format strings: the string, and whether it terminates (tformat) or separates (format). */
  format: string;
  terminator: boolean;
}

export interface PrettyContext {
  abbrev: number;
  abbrevCommit: boolean;
  date: DateMode;
  decorations: Decorations | null;
  /** The reflog entry a commit is shown for (`log -g`, `reflog`): the %g placeholders. */
  reflog?: ReflogShown;
}

export interface ReflogShown {
  /** `HEAD@{0}` (%gd) and `refs/heads/x@{0}` (%gD). */
  selector: string;
  fullSelector: string;
  who: Ident;
  message: string;
}

const BUILTINS = ['oneline', 'short', 'medium', 'full', 'fuller', 'raw', 'reference', 'email'];

/** --pretty / --format argument; null when unknown. */
export function parsePretty(arg: string, isFormatOption: boolean): Pretty | null {
  if (arg.startsWith('format:')) return { builtin: null, format: arg.slice(7), terminator: false };
  if (arg.startsWith('tformat:')) return { builtin: null, format: arg.slice(8), terminator: true };
  if (BUILTINS.includes(arg)) return { builtin: arg as Builtin, format: '', terminator: true };
  if (arg.includes('%') || isFormatOption) return { builtin: null, format: arg, terminator: true };
  return null;
}

const SANITIZE = /[^A-Za-z0-9._-]+/g;

function identPart(i: Ident, c: string, mode: DateMode): string | null {
  switch (c) {
    case 'n': case 'N': return i.name;
    case 'e': case 'E': return i.email;
    case 'l': case 'L': return i.email.replace(/@.*/, '');
    case 'd': return formatDate(i.time, i.tz, mode);
    case 'D': return formatDate(i.time, i.tz, 'rfc');
    case 'r': return formatDate(i.time, i.tz, 'relative');
    case 't': return String(i.time);
    case 'i': return formatDate(i.time, i.tz, 'iso');
    case 'I': return formatDate(i.time, i.tz, 'iso-strict');
    case 's': return formatDate(i.time, i.tz, 'short');
    case 'h': return formatDate(i.time, i.tz, mode === 'default' ? 'default' : mode);
    default: return null;
  }
}

function decorationText(c: Commit, pc: PrettyContext, wrap: boolean): string {
  const d = pc.decorations?.get(c.oid) ?? [];
  if (!d.length) return '';
  return wrap ? ` (${d.join(', ')})` : d.join(', ');
}

/** Expand a format string's placeholders for one commit. */
export function expandFormat(fmt: string, c: Commit, pc: PrettyContext): string {
  const ab = (oid: string) => oid.slice(0, pc.abbrev);
  let out = '';
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i];
    if (ch !== '%') {
      out += ch;
      continue;
    }
    let mod = '';
    let j = i + 1;
    if (fmt[j] === '+' || fmt[j] === '-' || fmt[j] === ' ') mod = fmt[j++];
    const rest = fmt.slice(j);
    let val: string | null = null;
    let len = 1;
    const two = rest.slice(0, 2);
    if (rest[0] === 'a' || rest[0] === 'c') {
      val = identPart(rest[0] === 'a' ? c.author : c.committer, rest[1], pc.date);
      len = 2;
    } else if (rest[0] === 'g' && pc.reflog) {
      const r = pc.reflog;
      const v: Record<string, string> = { d: r.selector, D: r.fullSelector, s: r.message, n: r.who.name, N: r.who.name, e: r.who.email, E: r.who.email };
      val = v[rest[1]] ?? null;
      len = 2;
    } else if (rest[0] === 'g') {
      val = 'dDsnNeE'.includes(rest[1]) ? '' : null;
      len = 2;
    }
    if (val === null) {
      len = 1;
      switch (rest[0]) {
        case 'H': val = c.oid; break;
        case 'h': val = ab(c.oid); break;
        case 'T': val = c.tree; break;
        case 't': val = ab(c.tree); break;
        case 'P': val = c.parents.join(' '); break;
        case 'p': val = c.parents.map(ab).join(' '); break;
        case 's': val = subjectOf(c.message); break;
        case 'f': val = subjectOf(c.message).replace(SANITIZE, '-').replace(/^[-.]+|[-.]+$/g, ''); break;
        case 'b': val = bodyOf(c.message); break;
        case 'B': val = c.message.replace(/^\n+/, ''); break;
        case 'N': case 'e': case 'G': val = ''; break;
        case 'd': val = decorationText(c, pc, true); break;
        case 'D': val = decorationText(c, pc, false); break;
        case 'n': val = '\n'; break;
        case '%': val = '%'; break;
        case 'm': val = '>'; break;
        case 'x': {
          const hex = /^x([0-9a-fA-F]{2})/.exec(rest);
          if (hex) {
            val = String.fromCharCode(parseInt(hex[1], 16));
            len = 3;
          }
          break;
        }
        case 'C': {
          const col = /^C\(([^)]*)\)|^C(red|green|blue|reset)/.exec(rest);
          if (col) {
            val = '';
            len = col[0].length;
          }
          break;
        }
        default:
          if (two === 'w(' || two === '<(' || two === '>(') {
            const close = rest.indexOf(')');
            val = '';
            len = close + 1;
          }
      }
    }
    if (val === null) {
      out += '%';
      continue;
    }
    if (mod === '+' && val !== '') val = '\n' + val;
    else if (mod === ' ' && val !== '') val = ' ' + val;
    else if (mod === '-' && val === '') out = out.replace(/\n+$/, '');
    out += val;
    i = j + len - 1;
  }
  return out;
}

const indent = (msg: string) =>
  msg
    .replace(/\n+$/, '')
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n') + '\n';

/** A built-in format's text for one commit (without the separator between commits); with a reflog entry, as `log -g` shows it. */
export function builtinFormat(b: Builtin, c: Commit, pc: PrettyContext): string {
  const r = pc.reflog;
  if (!r) return plainFormat(b, c, pc);
  if (b === 'oneline') return `${pc.abbrevCommit ? c.oid.slice(0, pc.abbrev) : c.oid}${decorationText(c, pc, true)} ${r.selector}: ${r.message}\n`;
  const text = plainFormat(b, c, pc);
  const nl = text.indexOf('\n') + 1;
  return `${text.slice(0, nl)}Reflog: ${r.selector} (${r.who.name} <${r.who.email}>)\nReflog message: ${r.message}\n${text.slice(nl)}`;
}

function plainFormat(b: Builtin, c: Commit, pc: PrettyContext): string {
  const id = pc.abbrevCommit ? c.oid.slice(0, pc.abbrev) : c.oid;
  const deco = decorationText(c, pc, true);
  const who = (i: Ident) => `${i.name} <${i.email}>`;
  const merge = c.parents.length > 1 ? `Merge: ${c.parents.map((p) => p.slice(0, pc.abbrev)).join(' ')}\n` : '';
  switch (b) {
    case 'oneline':
      return `${id}${deco} ${subjectOf(c.message)}\n`;
    case 'reference':
      return `${c.oid.slice(0, pc.abbrev)} (${subjectOf(c.message)}, ${formatDate(c.author.time, c.author.tz, 'short')})\n`;
    case 'short':
      return `commit ${id}${deco}\n${merge}Author: ${who(c.author)}\n\n${indent(subjectOf(c.message))}`;
    case 'medium':
      return `commit ${id}${deco}\n${merge}Author: ${who(c.author)}\nDate:   ${formatDate(c.author.time, c.author.tz, pc.date)}\n\n${indent(c.message)}`;
    case 'full':
      return `commit ${id}${deco}\n${merge}Author: ${who(c.author)}\nCommit: ${who(c.committer)}\n\n${indent(c.message)}`;
    case 'fuller':
      return (
        `commit ${id}${deco}\n${merge}Author:     ${who(c.author)}\nAuthorDate: ${formatDate(c.author.time, c.author.tz, pc.date)}\n` +
        `Commit:     ${who(c.committer)}\nCommitDate: ${formatDate(c.committer.time, c.committer.tz, pc.date)}\n\n${indent(c.message)}`
      );
    case 'raw':
      return (
        `commit ${c.oid}${deco}\ntree ${c.tree}\n${c.parents.map((p) => `parent ${p}\n`).join('')}` +
        `author ${who(c.author)} ${c.author.time} ${c.author.tz}\ncommitter ${who(c.committer)} ${c.committer.time} ${c.committer.tz}\n\n${indent(c.message)}`
      );
    case 'email':
      return `From ${c.oid} Mon Sep 17 00:00:00 2001\nFrom: ${who(c.author)}\nDate: ${formatDate(c.author.time, c.author.tz, 'rfc')}\nSubject: [PATCH] ${subjectOf(c.message)}\n\n${bodyOf(c.message)}`;
  }
}
