// Reference-counted shared resources (one browser, one app server) for many
// BrowserVMs: created by the first user, disposed when the last one releases.

export interface Lease<T> {
  value: T;
  release(): Promise<void>;
}

export class SharedPool<T> {
  private readonly items = new Map<string, { value: Promise<T>; refs: number }>();

  constructor(private readonly dispose: (v: T) => Promise<void>) {}

  async acquire(key: string, create: () => Promise<T>): Promise<Lease<T>> {
    let e = this.items.get(key);
    if (!e) {
      const entry = { value: create(), refs: 0 };
      this.items.set(key, entry);
      // A failed creation is not cached: the next user tries again.
      entry.value.catch(() => this.items.get(key) === entry && this.items.delete(key));
      e = entry;
    }
    const entry = e;
    entry.refs++;
    let value: T;
    try {
      value = await entry.value;
    } catch (err) {
      entry.refs--;
      throw err;
    }
    let released = false;
    return {
      value,
      release: async () => {
        if (released) return;
        released = true;
        if (--entry.refs > 0) return;
        if (this.items.get(key) === entry) this.items.delete(key);
        await this.dispose(value);
      },
    };
  }
}
