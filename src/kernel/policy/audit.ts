// The audit trail: structured events the host reads (vm.audit(), an event
// stream) and the guest reads, read-only, at /proc/agentos/audit (JSON lines).
// A bounded ring: the oldest events go first; `seq` numbers tell of the gap.

import type { AuditEvent, AuditType } from '../../api/types.js';
import type { Secrets } from './secrets.js';

/** Events kept; older ones are dropped (the host's stream has them all). */
const CAPACITY = 10_000;

export class AuditLog {
  private readonly ring: AuditEvent[] = [];
  private seq = 0;
  private readonly listeners = new Set<(e: AuditEvent) => void>();

  constructor(private readonly secrets: Secrets) {}

  record(type: AuditType, pid: number, fields: Record<string, unknown>): AuditEvent {
    const e: AuditEvent = { seq: ++this.seq, time: Date.now(), type, pid, ...this.scrub(fields) };
    this.ring.push(e);
    if (this.ring.length > CAPACITY) this.ring.shift();
    for (const l of this.listeners) l(e);
    return e;
  }

  /** Events after `seq` still in the ring. */
  since(seq = 0): AuditEvent[] {
    const first = this.ring.length ? this.ring[0].seq : this.seq + 1;
    return this.ring.slice(Math.max(0, seq + 1 - first));
  }

  get last(): number {
    return this.seq;
  }

  onRecord(cb: (e: AuditEvent) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  /** /proc/agentos/audit: one JSON object per line. */
  jsonl(): string {
    return this.ring.map((e) => JSON.stringify(e) + '\n').join('');
  }

  private scrub(fields: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) {
      if (v === undefined) continue;
      out[k] = typeof v === 'string' ? this.secrets.redact(v)
        : Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? this.secrets.redact(x) : x))
          : v;
    }
    return out;
  }
}
