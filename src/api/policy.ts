// The VM's permission policy: one plain object the host sets when it creates
// the VM (AgentVM's `policy` option, the CLI's flags, <agentos-terminal>'s
// attributes), checked and enforced by the kernel (src/kernel/policy/). The
// public shape that hosts, front ends and the kernel share; decision 0019.

/** A limit: a number (0 is a limit of zero), or 'none' (Infinity too) for no limit. Absent: the default (kernel/policy/defaults.ts). */
export type Limit = number | 'none';

export interface FsPolicy {
  /** Path prefixes the guest may read but never change (EROFS). */
  readOnly?: string[];
  /** Path prefixes that do not exist for the guest (ENOENT), however reached. */
  hidden?: string[];
  /** Path prefixes whose opens and changes wait for the host's approval. */
  ask?: string[];
}

/** Whether `fs` has any rule (the guest's snapshot restore, import and export change under rules). */
export function hasFsRules(fs: FsPolicy | undefined): fs is FsPolicy {
  return !!(fs && (fs.hidden?.length || fs.readOnly?.length || fs.ask?.length));
}

/** Process rules and limits; every limit is a `Limit` (decision 0031 gives the defaults). */
export interface ProcessPolicy {
  /** Commands the guest may run, by path (resolved in the VM); absent = any. */
  allow?: string[];
  /** Commands whose every run waits for the host's approval. */
  ask?: string[];
  /** Processes alive at once, the host's own sessions included (EAGAIN beyond). */
  maxProcesses?: Limit;
  /** CPU time of one process (time its worker is not parked in a syscall): SIGXCPU, then SIGKILL. */
  cpuTimeMs?: Limit;
  /** Wall-clock lifetime of one process (an exec, for session shells): SIGKILL. */
  wallTimeMs?: Limit;
  /** Open descriptors per process (EMFILE beyond). */
  maxOpenFiles?: Limit;
  /** Largest file a process may write (EFBIG and SIGXFSZ beyond, as RLIMIT_FSIZE). */
  maxFileSize?: Limit;
  /** Bytes of file data each writable layer (the root's upper layer, /tmp) may hold (ENOSPC beyond). */
  maxLayerBytes?: Limit;
  /** Bytes of stdout and of stderr `exec` keeps; the rest is dropped and the result says `truncated`. */
  maxExecOutput?: Limit;
  /**
   * Memory one process may have (at most 1 GiB, the runtime's own ceiling):
   * its WebAssembly memory, Pyodide's included (memory.grow fails beyond, so
   * malloc returns NULL and Python raises MemoryError), and on the Node host
   * its JavaScript heap (beyond it the process is killed, SIGKILL). A program
   * that needs more to start is refused (docs/security.md).
   */
  maxMemoryBytes?: Limit;
  /**
   * Whether set-user-ID programs (`sudo`, `su`) make their user root (default
   * true). false: they run as whoever ran them, and say the policy forbids
   * it. Root is bound by every other rule of the policy either way.
   */
  sudo?: boolean;
}

export interface EnvPolicy {
  /** Names of environment variables whose values never appear in the audit trail or another process's environ. */
  secrets?: string[];
}

/**
 * A host-held secret (policy.secrets): the guest sees only a placeholder token
 * in its environment; the kernel puts the value into request headers bound for
 * `hosts` (kernel/net/secrets.ts; docs/security.md, "Host-held secrets").
 */
export interface HostSecret {
  /** The real value; never enters the VM. */
  value: string;
  /** Host names the value may be sent to: `api.example.com`, or `*.example.com` (its subdomains). */
  hosts: string[];
}

export interface Policy {
  fs?: FsPolicy;
  processes?: ProcessPolicy;
  env?: EnvPolicy;
  /** Host-held secrets by environment variable name (unlike env.secrets, the value is never in the VM). */
  secrets?: Record<string, HostSecret>;
  /** How long an `ask` waits for the host before it counts as a denial (default 60 s; 'none': for ever). */
  approvalTimeoutMs?: Limit;
  /** The guest's network (below; enforced by kernel/net/policy.ts): 'none' (default), 'all' or { allow: [...] }. */
  network?: NetworkPolicy;
}

/** One entry of a network allowlist, as an object. */
export interface AllowRule {
  /** An origin, a host (`*.` wildcards), or `*`. */
  origin: string;
  /** HTTP methods allowed (any when absent). */
  methods?: string[];
  /** The host may resolve to private or loopback addresses. */
  private?: boolean;
  /** Each request waits for the host's approval (once / always / never for this entry). */
  ask?: boolean;
}

export type AllowEntry = string | AllowRule;

/**
 * The guest's network: 'none' (the default), 'all' (public hosts), or only
 * the listed origins and hosts (the entries' syntax: kernel/net/policy.ts).
 */
export type NetworkPolicy =
  | 'none'
  | 'all'
  | {
      allow: AllowEntry[];
      /** Host name → address used instead of DNS (like curl --resolve or /etc/hosts), set by the host. */
      hosts?: Record<string, string>;
    };
