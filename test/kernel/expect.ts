// Minimal assertions usable on both hosts (node:assert does not exist in the browser).

export class AssertionError extends Error {}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v));

export function eq<T>(actual: T, expected: T, what = 'value'): void {
  if (show(actual) !== show(expected)) throw new AssertionError(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

export function ok(cond: unknown, what: string): asserts cond {
  if (!cond) throw new AssertionError(what);
}

export function match(actual: string, re: RegExp, what = 'text'): void {
  if (!re.test(actual)) throw new AssertionError(`${what}: ${show(actual)} does not match ${re}`);
}

/** Expect a promise to reject with a SysError of errno name `code`. */
export async function rejectsWith(p: Promise<unknown>, code: string, what = 'call'): Promise<void> {
  try {
    await p;
  } catch (e) {
    const got = (e as { code?: string }).code;
    if (got === code) return;
    throw new AssertionError(`${what}: expected ${code}, got ${got ?? String(e)}`);
  }
  throw new AssertionError(`${what}: expected ${code}, but it succeeded`);
}
