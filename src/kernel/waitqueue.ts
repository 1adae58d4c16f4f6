// A wait queue: blocked syscalls register a waker here and are retried when it fires.
// The kernel never blocks; a syscall that cannot finish returns its WaitQueue instead.

export type Waker = () => void;

export class WaitQueue {
  private wakers = new Set<Waker>();

  add(w: Waker): () => void {
    this.wakers.add(w);
    return () => this.wakers.delete(w);
  }

  /** Wake every sleeper; each re-checks its condition (and may sleep again). */
  wake(): void {
    if (this.wakers.size === 0) return;
    const ws = [...this.wakers];
    this.wakers.clear();
    for (const w of ws) w();
  }

  get size(): number {
    return this.wakers.size;
  }
}
