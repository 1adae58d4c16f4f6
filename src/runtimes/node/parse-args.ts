// util.parseArgs: Node's command-line parser (long/short options, `=` values,
// grouped short flags, `--` end of options, defaults, multiple, strict mode
// errors with Node's codes).

import { nodeError } from './errors.js';

interface OptSpec { type: 'string' | 'boolean'; short?: string; multiple?: boolean; default?: unknown }
interface Config { args?: string[]; options?: Record<string, OptSpec>; strict?: boolean; allowPositionals?: boolean; tokens?: boolean }

export function parseArgs(config: Config = {}, argv: string[] = []): { values: Record<string, unknown>; positionals: string[]; tokens?: unknown[] } {
  const args = config.args ?? argv;
  const options = config.options ?? {};
  const strict = config.strict ?? true;
  const allowPositionals = config.allowPositionals ?? !strict;
  const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const positionals: string[] = [];
  const tokens: unknown[] = [];
  const byShort = new Map(Object.entries(options).filter(([, o]) => o.short).map(([k, o]) => [o.short!, k]));
  const store = (name: string, value: unknown, raw: string, index: number, inline: boolean) => {
    const o = options[name];
    if (strict) {
      if (!o) {
        const shown = raw.startsWith('--') ? raw : `-${raw.slice(1)}`;
        throw nodeError(TypeError, 'ERR_PARSE_ARGS_UNKNOWN_OPTION', `Unknown option '${shown}'${allowPositionals ? `. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "${shown}"` : ''}`);
      }
      if (o.type === 'string' && typeof value !== 'string') throw nodeError(TypeError, 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE', `Option '${o.short ? `-${o.short}, ` : ''}--${name} <value>' argument missing`);
      if (o.type === 'boolean' && typeof value === 'string') throw nodeError(TypeError, 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE', `Option '${o.short ? `-${o.short}, ` : ''}--${name}' does not take an argument`);
    }
    const v = value === undefined ? true : value;
    if (o?.multiple) ((values[name] ??= []) as unknown[]).push(v);
    else values[name] = v;
    tokens.push({ kind: 'option', name, rawName: raw, index, value: typeof value === 'string' ? value : undefined, inlineValue: typeof value === 'string' ? inline : undefined });
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      tokens.push({ kind: 'option-terminator', index: i });
      for (const p of args.slice(i + 1)) positionals.push(p);
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (eq > 0) store(name, a.slice(eq + 1), `--${name}`, i, true);
      else if (options[name]?.type === 'string' && i + 1 < args.length) store(name, args[++i], a, i - 1, false);
      else store(name, undefined, a, i, false);
    } else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const ch = a[j];
        const name = byShort.get(ch) ?? ch;
        if (options[name]?.type === 'string') {
          const rest = a.slice(j + 1);
          if (rest) store(name, rest, `-${ch}`, i, true);
          else if (i + 1 < args.length) store(name, args[++i], `-${ch}`, i - 1, false);
          else store(name, undefined, `-${ch}`, i, false);
          break;
        }
        store(name, undefined, `-${ch}`, i, false);
      }
    } else {
      if (strict && !allowPositionals) throw nodeError(TypeError, 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL', `Unexpected argument '${a}'. This command does not take positional arguments`);
      positionals.push(a);
      tokens.push({ kind: 'positional', index: i, value: a });
    }
  }
  for (const [name, o] of Object.entries(options)) if (o.default !== undefined && !(name in values)) values[name] = o.default;
  return config.tokens ? { values, positionals, tokens } : { values, positionals };
}
