// Parsing <agentos-terminal> attributes.

/**
 * `env`: either a JSON object (`{"A": "1"}`) or `NAME=value` words separated by
 * spaces, a value quoted with '…' or "…" when it holds spaces (`A=1 B="two words"`).
 */
export function parseEnv(text: string | null): Record<string, string> | undefined {
  if (!text?.trim()) return undefined;
  const t = text.trim();
  if (t.startsWith('{')) {
    const obj = JSON.parse(t) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, String(v)]));
  }
  const env: Record<string, string> = {};
  for (const m of t.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|'([^']*)'|(\S*))/g)) {
    env[m[1]] = m[3] ?? m[4] ?? m[5] ?? '';
  }
  return env;
}

/** A positive integer attribute, or undefined. */
export function parseSize(text: string | null): number | undefined {
  const n = Number(text);
  return text !== null && Number.isInteger(n) && n > 0 ? n : undefined;
}
