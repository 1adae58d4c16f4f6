// git config [<file-option>] [--type=<type>] [-z] name [value [value-pattern]]
// git config [<file-option>] --add name value
// git config [<file-option>] (--get | --get-all | --get-regexp) name [value-pattern]
// git config [<file-option>] (--unset | --unset-all) name [value-pattern]
// git config [<file-option>] (--remove-section | --rename-section) ...
// git config [<file-option>] -l | --list
//
// Read and write configuration: --system, --global, --local, --file.

import type { Ctx, Scope } from '../core/ctx.js';
import { ConfigFile, normKey, parseBool, parseInt10, splitKey } from '../core/config.js';
import { parseOptions, UsageFail } from '../core/opts.js';

const USAGE = `usage: git config [<options>]

Config file location
    --global              use global config file
    --system              use system config file
    --local               use repository config file
    -f, --file <file>     use given config file

Action
    --get                 get value: name [value-pattern]
    --get-all             get all values: key [value-pattern]
    --get-regexp          get values for regexp: name-regex [value-pattern]
    --replace-all         replace all matching variables: name value [value-pattern]
    --add                 add a new variable: name value
    --unset               remove a variable: name [value-pattern]
    --unset-all           remove all matches: name [value-pattern]
    --rename-section      rename section: old-name new-name
    --remove-section      remove a section: name
    -l, --list            list all
    -e, --edit            open an editor

Type
    -t, --type <type>     value is given this type
    --bool                value is "true" or "false"
    --int                 value is decimal number
`;

export async function config(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    {
      '|global': 'bool', '|system': 'bool', '|local': 'bool', 'f|file': 'str', '|get': 'bool', '|get-all': 'bool', '|get-regexp': 'bool', '|replace-all': 'bool',
      '|add': 'bool', '|unset': 'bool', '|unset-all': 'bool', '|rename-section': 'bool', '|remove-section': 'bool', 'l|list': 'bool', 'e|edit': 'bool',
      't|type': 'str', '|bool': 'bool', '|int': 'bool', '|path': 'bool', 'z|null': 'bool', '|name-only': 'bool', '|show-origin': 'bool', '|show-scope': 'bool', '|default': 'str', '|includes': 'bool',
    },
    USAGE,
  );
  const scope: Scope | 'file' | null = o.has('global') ? 'global' : o.has('system') ? 'system' : o.has('local') ? 'local' : o.given('file') ? 'file' : null;
  if (scope === 'local' && !ctx.findRepo()) ctx.fatal('--local can only be used inside a git repository');
  const type = o.has('bool') ? 'bool' : o.has('int') ? 'int' : o.get('type');
  const term = o.has('z') ? '\0' : '\n';
  const ops = ['get', 'get-all', 'get-regexp', 'replace-all', 'add', 'unset', 'unset-all', 'rename-section', 'remove-section', 'list', 'edit'].filter((k) => o.has(k));
  if (ops.length > 1) ctx.fatal('only one action at a time', 129);
  const op = ops[0] ?? (o.operands.length === 1 ? 'get' : o.operands.length >= 2 ? 'set' : null);
  if (!op) throw new UsageFail(USAGE, 129);

  const filePath = (): string => {
    if (scope === 'file') return ctx.abs(o.get('file')!);
    const s = scope ?? 'local';
    if (s === 'local' && !ctx.findRepo()) ctx.fatal('not in a git directory');
    const p = ctx.configPath(s);
    if (!p) ctx.fatal('$HOME not set');
    return p;
  };
  /** Entries visible for reading: one file, or every layer. */
  const entries = (): { key: string; value: string | null }[] => {
    if (scope) {
      const text = ctx.readText(filePath());
      if (text === null) return [];
      return new ConfigFile(text).entries;
    }
    return ctx.layers().flatMap((l) => l.file.entries);
  };
  const typed = (key: string, v: string | null): string => {
    if (type === 'bool') {
      const b = parseBool(v);
      if (b === null) ctx.fatal(`bad boolean config value '${v}' for '${key}'`);
      return String(b);
    }
    if (type === 'int') {
      const n = parseInt10(v);
      if (n === null) ctx.fatal(`bad numeric config value '${v}' for '${key}': invalid unit`);
      return String(n);
    }
    return v ?? (type === undefined ? '' : 'true');
  };
  const checkKey = (key: string): string => {
    const k = splitKey(key);
    if (!key.includes('.') || key.startsWith('.')) {
      ctx.error(`key does not contain a section: ${key}`);
      return '';
    }
    if (!k) {
      ctx.error(`invalid key: ${key}`);
      return '';
    }
    return normKey(key)!;
  };
  const edit = (fn: (f: ConfigFile) => number): number => {
    const path = filePath();
    let status = 0;
    let file: ConfigFile;
    try {
      file = new ConfigFile(ctx.readText(path) ?? '');
    } catch {
      ctx.fatal(`bad config file ${path}`);
    }
    status = fn(file);
    if (status === 0) {
      ctx.writeAtomic(path, file.toString());
    }
    return status;
  };

  switch (op) {
    case 'list': {
      for (const e of entries()) ctx.print(`${e.key}${e.value === null ? '' : `=${e.value}`}${term}`);
      return 0;
    }
    case 'get':
    case 'get-all': {
      const key = checkKey(o.operands[0]);
      if (!key) return 1;
      const re = o.operands[1] !== undefined ? new RegExp(o.operands[1]) : null;
      const vals = entries().filter((e) => e.key === key && (!re || re.test(e.value ?? '')));
      if (!vals.length) {
        if (o.given('default')) {
          ctx.print(typed(key, o.get('default')!) + term);
          return 0;
        }
        return 1;
      }
      const show = op === 'get' ? vals.slice(-1) : vals;
      for (const v of show) ctx.print(typed(key, v.value) + term);
      return 0;
    }
    case 'get-regexp': {
      const re = new RegExp(o.operands[0] ?? '', 'i');
      const vre = o.operands[1] !== undefined ? new RegExp(o.operands[1]) : null;
      const vals = entries().filter((e) => re.test(e.key) && (!vre || vre.test(e.value ?? '')));
      for (const v of vals) ctx.print(o.has('name-only') ? `${v.key}${term}` : `${v.key}${v.value === null ? '' : ` ${typed(v.key, v.value)}`}${term}`);
      return vals.length ? 0 : 1;
    }
    case 'set':
    case 'add':
    case 'replace-all': {
      if (o.operands.length < 2) throw new UsageFail(USAGE, 129);
      const [key, raw] = o.operands;
      const nk = checkKey(key);
      if (!nk) return 1;
      const value = type === 'bool' ? typed(key, raw) : type === 'int' ? typed(key, raw) : raw;
      return edit((f) => {
        const count = f.getAll(nk).length;
        if (op === 'set' && count > 1) {
          ctx.warning(`${key} has multiple values`);
          ctx.error(`cannot overwrite multiple values with a single value\n       Use a regexp, --add or --replace-all to change ${key}.`);
          return 5;
        }
        f.set(key, value, { add: op === 'add', all: op === 'replace-all' });
        return 0;
      });
    }
    case 'unset':
    case 'unset-all': {
      const nk = checkKey(o.operands[0]);
      if (!nk) return 1;
      return edit((f) => {
        const count = f.getAll(nk).length;
        if (count === 0) return 5;
        if (op === 'unset' && count > 1) {
          ctx.warning(`${o.operands[0]} has multiple values`);
          return 5;
        }
        f.unset(nk, op === 'unset-all');
        return 0;
      });
    }
    case 'remove-section':
      return edit((f) => {
        const [sec, ...sub] = o.operands[0].split('.');
        if (f.removeSection(sub.length ? `${sec.toLowerCase()}.${sub.join('.')}` : sec.toLowerCase())) return 0;
        ctx.fatal('no such section: ' + o.operands[0]);
      });
    case 'rename-section':
      return edit((f) => {
        if (f.renameSection(o.operands[0], o.operands[1])) return 0;
        ctx.fatal('no such section: ' + o.operands[0]);
      });
    case 'edit':
      ctx.fatal('config --edit is not supported by agentOS git; use --add/--unset');
  }
  return 0;
}
