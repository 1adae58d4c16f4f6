// Builtins implemented in TypeScript. A native is either a plain function of
// its input and argument values (jq's C builtins: every combination of the
// arguments, the last one outermost) or a generator that evaluates its
// argument filters itself (select, path, limit, ...), optionally with a path
// mode. The tables live in lib-*.ts; this file holds the shared types.

import type { Frame, K, Node, Path, PK } from './interp.js';
import type { JObject, Json } from './value.js';

/** What builtins need from the program around them (inputs, stderr, environment). */
export interface Runtime {
  /** The next input, or undefined when there are no more. */
  nextInput(): Json | undefined;
  debug(v: Json): void;
  stderr(v: Json): void;
  env(): JObject;
  filename(): Json;
  lineNumber(): number;
  builtins(): string[];
  searchList(): Json;
  progOrigin(): Json;
  jqOrigin(): Json;
}

export interface Native {
  /** A generator native that always gives one output ('always'), or does when its arguments are single ('args'). */
  single?: 'always' | 'args';
  fn?: (v: Json, args: Json[], rt: Runtime) => Json;
  gen?: (v: Json, args: Node[], f: Frame, k: K, rt: Runtime) => void;
  paths?: (v: Json, p: Path, args: Node[], f: Frame, k: PK, rt: Runtime) => void;
}

export type Table = Record<string, Native>;

/** `halt`/`halt_error`: ends the program with a status (and message); not catchable by try. */
export class Halt {
  constructor(
    readonly status: number,
    readonly message: Json | undefined,
  ) {}
}

/** Every output of a filter, in order. */
export function collect(node: Node, v: Json, f: Frame): Json[] {
  const out: Json[] = [];
  node.ev(v, f, (x) => {
    out.push(x);
  });
  return out;
}

/** Stops a generator early (first/limit/isempty): one instance per use. */
export class Stop {}

/** Run `body` until it throws `stop`. */
export function until(stop: Stop, body: () => void): void {
  try {
    body();
  } catch (e) {
    if (e !== stop) throw e;
  }
}
