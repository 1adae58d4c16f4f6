// The `assert` module (and assert/strict): AssertionError with Node's
// messages, including a +/- diff of the inspected values for deep equality.

import { isDeepLooseEqual, isDeepStrictEqual } from './deep-equal.js';
import { inspect } from './inspect.js';

interface AssertOpts { message?: string | Error; actual?: unknown; expected?: unknown; operator?: string; stackStartFn?: (...a: never[]) => unknown }

export class AssertionError extends Error {
  actual: unknown;
  expected: unknown;
  operator: string;
  generatedMessage: boolean;
  code = 'ERR_ASSERTION';
  constructor(o: AssertOpts) {
    super(typeof o.message === 'string' ? o.message : defaultMessage(o));
    this.name = 'AssertionError';
    this.generatedMessage = typeof o.message !== 'string';
    this.actual = o.actual;
    this.expected = o.expected;
    this.operator = o.operator ?? 'fail';
    Error.captureStackTrace?.(this, o.stackStartFn as never);
  }
}

const HEADERS: Record<string, string> = {
  deepStrictEqual: 'Expected values to be strictly deep-equal:',
  strictEqual: 'Expected values to be strictly equal:',
  deepEqual: 'Expected values to be loosely deep-equal:',
  equal: 'Expected values to be loosely equal:',
  notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
  notStrictEqual: 'Expected "actual" to be strictly unequal to:',
  notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
  notEqual: 'Expected "actual" to be loosely unequal to:',
};

const show = (v: unknown) => inspect(v, { depth: 1000, sorted: true, compact: false, breakLength: Infinity });

function defaultMessage(o: AssertOpts): string {
  const op = o.operator ?? 'fail';
  const head = HEADERS[op];
  if (!head) return `${show(o.actual)} ${op} ${show(o.expected)}`;
  const a = show(o.actual).split('\n');
  const e = show(o.expected).split('\n');
  if (op.startsWith('not')) return a.length === 1 ? `${head} ${a[0]}` : `${head}\n\n${a.join('\n')}\n`;
  if (a.length === 1 && e.length === 1 && (op === 'strictEqual' || op === 'equal' || typeof o.actual !== 'object' || o.actual === null)) {
    if (op === 'strictEqual' && typeof o.actual === 'object' && o.actual !== null && a[0] === e[0]) {
      return 'Values have same structure but are not reference-equal:\n\n' + a[0] + '\n';
    }
    return `${head}\n\n${a[0]} !== ${e[0]}\n`;
  }
  return `${head}\n+ actual - expected\n\n${diff(a, e).join('\n')}`;
}

/** A line diff (LCS), '+' for actual-only, '-' for expected-only. */
function diff(a: string[], e: string[]): string[] {
  const n = a.length;
  const m = e.length;
  const dp = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) dp[i][j] = a[i] === e[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === e[j]) { out.push(`  ${a[i]}`); i++; j++; }
    else if (i < n && (j === m || dp[i + 1][j] >= dp[i][j + 1])) out.push(`+ ${a[i++]}`);
    else out.push(`- ${e[j++]}`);
  }
  return out;
}

type Fn = (...a: unknown[]) => unknown;

function fail(o: AssertOpts): never {
  if (o.message instanceof Error) throw o.message;
  throw new AssertionError(o);
}

function matches(err: unknown, expected: unknown, op: string, message?: string | Error): void {
  if (expected === undefined) return;
  if (typeof expected === 'function') {
    if (expected.prototype !== undefined && err instanceof (expected as new () => unknown)) return;
    if (Object.prototype.isPrototypeOf.call(Error, expected)) {
      throw err;
    }
    if ((expected as Fn).call({}, err) === true) return;
    fail({ message: message ?? `The ${op === 'rejects' ? 'rejection' : 'error'} validation function is expected to return "true". Received false`, actual: err, expected, operator: op });
  }
  if (expected instanceof RegExp) {
    if (expected.test(String(err))) return;
    fail({ message: message ?? `The input did not match the regular expression ${String(expected)}. Input:\n\n${inspect(String(err))}\n`, actual: err, expected, operator: op });
  }
  if (typeof expected === 'object' && expected !== null) {
    for (const [k, v] of Object.entries(expected)) {
      const got = (err as Record<string, unknown>)?.[k];
      const ok = v instanceof RegExp && typeof got === 'string' ? v.test(got) : isDeepStrictEqual(got, v);
      if (!ok) fail({ message: message ?? `Expected values to be strictly deep-equal:\n+ actual - expected\n\n  Comparison {\n+   ${k}: ${inspect(got)}\n-   ${k}: ${inspect(v)}\n  }`, actual: err, expected, operator: op });
    }
  }
}

export function makeAssert(strict: boolean): Fn & Record<string, unknown> {
  const ok = (...args: unknown[]) => {
    const [v, message] = args as [unknown, string | Error | undefined];
    if (!v) fail({ message: message ?? (args.length === 0 ? 'No value argument passed to `assert.ok()`' : 'The expression evaluated to a falsy value:\n\n  assert.ok(' + inspect(v) + ')\n'), actual: v, expected: true, operator: '==', stackStartFn: assert });
  };
  const assert = ((...args: unknown[]) => ok(...args)) as Fn & Record<string, unknown>;
  const cmp = (name: string, test: (a: unknown, b: unknown) => boolean) =>
    function check(a: unknown, b: unknown, message?: string | Error) {
      if (!test(a, b)) fail({ message, actual: a, expected: b, operator: name, stackStartFn: check });
    };
  const strictEqual = cmp('strictEqual', Object.is);
  const deepStrictEqual = cmp('deepStrictEqual', isDeepStrictEqual);
  const notStrictEqual = cmp('notStrictEqual', (a, b) => !Object.is(a, b));
  const notDeepStrictEqual = cmp('notDeepStrictEqual', (a, b) => !isDeepStrictEqual(a, b));
  Object.assign(assert, {
    AssertionError,
    ok,
    fail: (message?: string | Error) => fail({ message: message ?? 'Failed', operator: 'fail' }),
    strictEqual, deepStrictEqual, notStrictEqual, notDeepStrictEqual,
    equal: strict ? strictEqual : cmp('equal', (a, b) => a == b || (a !== a && b !== b)),
    notEqual: strict ? notStrictEqual : cmp('notEqual', (a, b) => a != b && !(a !== a && b !== b)),
    deepEqual: strict ? deepStrictEqual : cmp('deepEqual', isDeepLooseEqual),
    notDeepEqual: strict ? notDeepStrictEqual : cmp('notDeepEqual', (a, b) => !isDeepLooseEqual(a, b)),
    throws(fn: Fn, expected?: unknown, message?: string) {
      if (typeof expected === 'string') { message = expected; expected = undefined; }
      try {
        fn();
      } catch (e) {
        matches(e, expected, 'throws', message);
        return;
      }
      fail({ message: message ?? `Missing expected exception${typeof expected === 'function' && expected.name ? ` (${expected.name})` : ''}.`, operator: 'throws' });
    },
    doesNotThrow(fn: Fn, message?: string) {
      try {
        fn();
      } catch (e) {
        fail({ message: `Got unwanted exception${message ? `: ${message}` : '.'}\nActual message: "${(e as Error)?.message}"`, actual: e, operator: 'doesNotThrow' });
      }
    },
    async rejects(p: Promise<unknown> | (() => Promise<unknown>), expected?: unknown, message?: string) {
      if (typeof expected === 'string') { message = expected; expected = undefined; }
      try {
        await (typeof p === 'function' ? p() : p);
      } catch (e) {
        matches(e, expected, 'rejects', message);
        return;
      }
      fail({ message: message ?? 'Missing expected rejection.', operator: 'rejects' });
    },
    async doesNotReject(p: Promise<unknown> | (() => Promise<unknown>), message?: string) {
      try {
        await (typeof p === 'function' ? p() : p);
      } catch (e) {
        fail({ message: `Got unwanted rejection${message ? `: ${message}` : '.'}\nActual message: "${(e as Error)?.message}"`, actual: e, operator: 'doesNotReject' });
      }
    },
    match(s: string, re: RegExp, message?: string) {
      if (!re.test(s)) fail({ message: message ?? `The input did not match the regular expression ${String(re)}. Input:\n\n${inspect(s)}\n`, actual: s, expected: re, operator: 'match' });
    },
    doesNotMatch(s: string, re: RegExp, message?: string) {
      if (re.test(s)) fail({ message: message ?? `The input was expected to not match the regular expression ${String(re)}. Input:\n\n${inspect(s)}\n`, actual: s, expected: re, operator: 'doesNotMatch' });
    },
    ifError(v: unknown) {
      if (v !== null && v !== undefined) {
        if (v instanceof Error) throw v;
        fail({ message: `ifError got unwanted exception: ${inspect(v)}`, actual: v, operator: 'ifError' });
      }
    },
  });
  return assert;
}
