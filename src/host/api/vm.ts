// The one interface of an agentOS VM, wherever it runs: AgentVM on Node and in
// a browser page, BrowserVM (Chromium driven from Node). Front ends (the CLI,
// MCP) take a VM and never ask which kind it is. What a host cannot do is an
// absent member, typed here as optional (a capability), not a method that
// throws: `if (vm.spawn)` is how a caller asks.

import type { AuditListener, ExecResult, OutputListener, ExtraShell, SpawnedProcess, Terminal, TerminalOptions } from './agent-vm.js';
import type { DirEntry } from './list-directory.js';
import type { Agents } from './agents.js';
import type { Jobs } from './jobs.js';
import type { ExposedPort, ExposeOptions } from './expose.js';
import type { Machine, RunOptions, RunResult } from './machine.js';
import type { ExecBytesResult, ExecOptions } from '../worker/exec-shell.js';
import type { AuditEvent, SnapshotInfo } from '../../api/types.js';

/** A VM's snapshots, their management and their portable files. */
export interface Snapshots {
  create(name: string): Promise<SnapshotInfo>;
  list(): Promise<SnapshotInfo[]>;
  delete(name: string): Promise<void>;
  /** The snapshot as a portable file (it names the base image it was made over). */
  export(name: string): Promise<Uint8Array>;
  import(name: string, file: Uint8Array): Promise<SnapshotInfo>;
  restore(name: string): Promise<void>;
}

export interface VM {
  /** Boot the VM and open its exec shell; resolves when the shell is ready. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Run a command in the exec shell (output decoded as UTF-8); cd and variables persist between calls. */
  exec(cmd: string, opts?: ExecOptions): Promise<ExecResult>;
  /** The same, with the bytes exactly as the command wrote them. */
  execBytes(cmd: string, opts?: ExecOptions): Promise<ExecBytesResult>;
  /** Run a program directly (no shell), as the VM's user unless uid/gid say otherwise. */
  run(argv: string[], opts?: Omit<RunOptions, 'path'>): Promise<RunResult>;
  /** Resolves when every write made so far is durable (at once for an ephemeral VM). */
  sync(): Promise<void>;
  /** Output chunks of every exec, or the audit trail's events, as they come; returns the unsubscribe function. */
  on(event: 'output', cb: OutputListener): () => void;
  on(event: 'audit', cb: AuditListener): () => void;
  /** The audit trail so far. */
  audit(): Promise<AuditEvent[]>;
  /** An interactive shell on a pseudo-terminal (default `bash -l`). */
  openTerminal(opts?: TerminalOptions): Promise<Terminal>;
  /** Save the writable layer as snapshot `name`. */
  snapshot(name: string): Promise<SnapshotInfo>;
  /** Make snapshot `name` the VM's state; every process stops, the next exec opens a fresh shell. */
  restore(name: string): Promise<void>;
  readonly snapshots: Snapshots;
  /** Background jobs: start, poll output by cursor, wait, kill (the whole session), list. */
  readonly jobs: Jobs;
  /** Agent processes: run, list, trace, pending, approve, answer, signal, on('trace') (docs/agents.md). */
  readonly agents: Agents;
  /** The file calls act as the VM's user, under the policy. */
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array | string, mode?: number): Promise<void>;
  /** The entries of a directory (name, type, size, mode), sorted. */
  listDirectory(path: string): Promise<DirEntry[]>;

  // Capabilities: present where the host has them (AgentVM), absent where not (BrowserVM:
  // process streams, shells and the kernel live in the page).

  /** Start a program (no shell) with its stdio as streams. */
  spawn?(argv: string[], opts?: { cwd?: string; env?: Record<string, string> }): Promise<SpawnedProcess>;
  /** Another exec shell, independent of the default one. */
  openExtraSession?(): Promise<ExtraShell>;
  /** An ephemeral VM starting from this one's files as they are now. */
  fork?(): Promise<VM>;
  /** The kernel's host-level interface: syscalls as root, exempt from the policy's rules. */
  readonly vm?: Machine;
  /** Make the VM's server on `vmPort` reachable from outside (Node: a port on the host's 127.0.0.1). */
  expose?(vmPort: number, opts?: ExposeOptions): Promise<ExposedPort>;
  /** Close every exposure of `vmPort`. */
  unexpose?(vmPort: number): Promise<void>;
}
