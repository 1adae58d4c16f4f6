// The records a VM's host API hands out and takes back: snapshots, storage,
// the audit trail and approvals. Shared by the kernel (which makes them), the
// hosts and the front ends.

/** A named snapshot of the root's writable layer (vm.snapshots()). */
export interface SnapshotInfo {
  name: string;
  bytes: number;
  mtimeMs: number;
}

/** What a persistent VM's store holds and may hold, in bytes. */
export interface StorageEstimate {
  usage: number;
  quota: number;
}

export type AuditType = 'policy' | 'approval' | 'process.start' | 'process.exit' | 'file.write' | 'file.delete' | 'network';

/** One event of the audit trail (vm.audit(), the audit stream, /proc/agentos/audit). */
export interface AuditEvent {
  /** 1, 2, 3, ... in order of recording. */
  seq: number;
  /** Date.now() when recorded. */
  time: number;
  type: AuditType;
  /** The process the event is about (1 = the host). */
  pid: number;
  [field: string]: unknown;
}

/** A policy `ask` waiting for the host's answer. */
export interface ApprovalRequest {
  id: number;
  /** The rule that asks, e.g. `fs.ask:/home/user/project` or `processes.ask:/usr/bin/git`. */
  rule: string;
  /** What is being attempted, for the person deciding. */
  detail: string;
  pid: number;
  time: number;
}

/** The host's answer to an ask: allow this once, always (for the rule), never (for the rule), or deny this once. */
export type Answer = 'once' | 'always' | 'never' | 'deny';
