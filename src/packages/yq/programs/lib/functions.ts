// yq's own functions on top of the jq builtins: env/strenv, tag, keys in
// document order, downcase/upcase, sort_keys, to_yaml/from_yaml and friends,
// load/load_str. `env(NAME)` takes a bare name, so the expression is
// rewritten to pass it as a string first.

import { Document, parseDocument } from 'yaml';
import { SysError, strerror } from '../../../../abi/errno.js';
import type { Sys } from '../../../../libc/sys.js';
import type { Table } from '../../../jq/programs/engine/engine.js';
import { toJson } from '../../../jq/programs/engine/json-print.js';
import { err, isNum, Lit, num, typeOf, type Json } from '../../../jq/programs/engine/value.js';
import { Converter } from './convert.js';

export const YQ_PRELUDE = `
def keys: keys_unsorted;
def downcase: ascii_downcase;
def upcase: ascii_upcase;
def sort_keys(f): (f | select(type == "object")) |= (to_entries | sort_by(.key) | from_entries);
def to_json: tojson;
def from_json: fromjson;
def to_entries(f): to_entries;
def splitDoc: .;
`;

/** `env(NAME)` and `strenv(NAME)` with a bare name become calls with a string. */
export function rewriteExpression(expr: string): string {
  return expr.replace(/\b(strenv|env)\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)/g, (_m, f: string, name: string) => `_yq_${f}("${name}")`);
}

const TAGS: Record<string, string> = { null: '!!null', boolean: '!!bool', string: '!!str', array: '!!seq', object: '!!map' };

/** A YAML text as a jq value. */
export function yamlValue(text: string): Json {
  return new Converter().fromDoc(parseDocument(text));
}

export function yqNatives(sys: Sys, env: Record<string, string>): Table {
  const readText = (name: Json): string => {
    if (typeof name !== 'string') throw err(`${typeOf(name)} is not a file name`);
    try {
      return new TextDecoder().decode(sys.readFile(name));
    } catch (e) {
      if (e instanceof SysError) throw err(`open ${name}: ${strerror(e.errno).toLowerCase()}`);
      throw e;
    }
  };
  return {
    '_yq_env/1': {
      fn: (_v, [name]) => {
        const s = env[String(name)];
        if (s === undefined) return null;
        try {
          return yamlValue(s);
        } catch {
          return s;
        }
      },
    },
    '_yq_strenv/1': { fn: (_v, [name]) => env[String(name)] ?? null },
    'tag/0': { fn: (v) => (isNum(v) ? (Number.isInteger(num(v)) && !(v instanceof Lit && /[.eE]/.test(v.s)) ? '!!int' : '!!float') : TAGS[typeOf(v)]) },
    'to_yaml/0': { fn: (v) => yamlText(v) },
    'from_yaml/0': {
      fn: (v) => {
        if (typeof v !== 'string') throw err(`cannot parse ${typeOf(v)} as yaml`);
        return yamlValue(v);
      },
    },
    'load/1': { fn: (_v, [name]) => yamlValue(readText(name)) },
    'load_str/1': { fn: (_v, [name]) => readText(name) },
    'to_string/0': { fn: (v) => (typeof v === 'string' ? v : toJson(v)) },
  };
}

/** A jq value as YAML text. */
export function yamlText(v: Json, indent = 2): string {
  const doc = new Document();
  doc.contents = new Converter().toNode(v, null, false) as typeof doc.contents;
  return doc.toString({ indent, lineWidth: 0, flowCollectionPadding: false });
}
