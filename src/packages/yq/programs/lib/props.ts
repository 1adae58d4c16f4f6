// Java-style properties output (-o props): one `path = value` line per leaf,
// paths joined with dots, array indices as numbers.

import type { Json } from '../../../jq/programs/engine/value.js';
import { toJson } from '../../../jq/programs/engine/json-print.js';

export function propsText(v: Json): string {
  const lines: string[] = [];
  const walk = (x: Json, path: string): void => {
    if (Array.isArray(x) && x.length) x.forEach((y, i) => walk(y, path ? `${path}.${i}` : String(i)));
    else if (x instanceof Map && x.size) for (const [k, y] of x) walk(y, path ? `${path}.${k}` : k);
    else lines.push(`${path} = ${typeof x === 'string' ? x : x === null ? '' : toJson(x)}`);
  };
  walk(v, '');
  return lines.length ? lines.join('\n') + '\n' : '';
}
