// Secrets (policy.env.secrets): environment variables whose values must not
// leak into the audit trail or another process's /proc/<pid>/environ. The
// kernel learns the values from the environments it sees at spawn.

const MASK = '***';

export class Secrets {
  private readonly names: ReadonlySet<string>;
  private readonly values = new Set<string>();

  constructor(names: readonly string[] = []) {
    this.names = new Set(names);
  }

  get active(): boolean {
    return this.names.size > 0;
  }

  /** Remember the values of secret names in an environment (`NAME=value` strings). */
  learn(env: readonly string[]): void {
    if (!this.names.size) return;
    for (const kv of env) {
      const i = kv.indexOf('=');
      // Very short values would mask innocent text everywhere; they are masked in environ only.
      if (i > 0 && this.names.has(kv.slice(0, i)) && kv.length - i - 1 >= 4) this.values.add(kv.slice(i + 1));
    }
  }

  /** Values masked whatever name they come under (the host-held secrets' values: net/secrets.ts). */
  hide(values: readonly string[]): void {
    for (const v of values) this.values.add(v);
  }

  /** Text with every known secret value masked. */
  redact(text: string): string {
    if (!this.values.size) return text;
    let out = text;
    for (const v of this.values) if (out.includes(v)) out = out.split(v).join(MASK);
    return out;
  }

  /** An environment as another process may see it: secret names keep their name, lose their value. */
  redactEnv(env: readonly string[]): string[] {
    if (!this.names.size) return [...env];
    return env.map((kv) => {
      const i = kv.indexOf('=');
      return i > 0 && this.names.has(kv.slice(0, i)) ? `${kv.slice(0, i)}=${MASK}` : this.redact(kv);
    });
  }
}
