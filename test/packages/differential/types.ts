// One case of the userland differential suite: a command line run through the
// host's GNU tools and through agentOS's commands (see run.ts).

export interface UCase {
  /** Unique across the suite (the family prefix is added). */
  name: string;
  /** A bash script: `bash -c` on the host, `/bin/bash -c` in the VM. */
  script: string;
  stdin?: string;
  /** Files created first, relative to the case directory; a value ending in '/' with no content makes a directory. */
  files?: Record<string, string>;
  /**
   * Rewrites applied to stdout on both sides before comparing: only for what
   * cannot match (ls -l dates, directory sizes); each use says why.
   */
  normalise?: [RegExp, string][];
  /** 'shape' (default): stderr compared after mapping shell prefixes; 'ignore' for cases whose wording is not the point. */
  stderr?: 'shape' | 'ignore';
}

export interface Family {
  family: string;
  cases: UCase[];
}

export function u(name: string, script: string, extra: Omit<UCase, 'name' | 'script'> = {}): UCase {
  return { name, script, ...extra };
}

export function family(name: string, cases: UCase[]): Family {
  return { family: name, cases: cases.map((c) => ({ ...c, name: `${name}: ${c.name}` })) };
}
