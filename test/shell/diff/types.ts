// One script of the differential suite: run through the real bash on the host
// and through agentos-shell in the VM; stdout, exit status and the shape of
// stderr must match (see run.ts).

export interface DiffCase {
  /** Unique across the whole suite; divergences.ts refers to cases by name. */
  name: string;
  /** The script, passed as `-c SCRIPT`. */
  script: string;
  /** Bytes on stdin; default: empty (/dev/null in the VM). */
  stdin?: string;
  /**
   * POSIX-only case: the oracle is `bash --posix -c` and the VM runs `/bin/sh -c`.
   * In oracle-only mode the script must also give the same stdout and status under dash.
   */
  posix?: boolean;
  /**
   * Files created before the run: relative paths are under the case's working
   * directory, `~/...` under its HOME. Parent directories are created.
   */
  files?: Record<string, string>;
  /** External commands the case runs besides the shell (e.g. 'cat'): skipped in the VM until they exist. */
  needs?: string[];
}

export interface Topic {
  topic: string;
  cases: DiffCase[];
}

/** A case in a topic file: `t(name, script, {stdin, posix, files, needs})`. */
export function t(name: string, script: string, extra: Omit<DiffCase, 'name' | 'script'> = {}): DiffCase {
  return { name, script, ...extra };
}

/** A topic; its case names get the `topic: ` prefix so they are unique across the suite. */
export function topic(name: string, cases: DiffCase[]): Topic {
  return { topic: name, cases: cases.map((c) => ({ ...c, name: `${name}: ${c.name}` })) };
}
