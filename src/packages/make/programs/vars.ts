// make's variables: a value, a flavor (recursive `=` or simple `:=`), an
// origin ($(origin)), and export state. Scopes chain: a target's own
// variables (target- and pattern-specific), then the target that asked for
// it, then the global set; `+=` in a target scope appends to what the
// enclosing scope gives.

export type Flavor = 'recursive' | 'simple';
export type Origin = 'default' | 'environment' | 'environment override' | 'file' | 'command line' | 'override' | 'automatic';

export interface Var {
  value: string;
  flavor: Flavor;
  origin: Origin;
  /** true: `export`, false: `unexport`, undefined: the default (exported if it came from the environment or the command line). */
  exported?: boolean;
  /** A target-scope `+=`: the enclosing value, a space, then this one. */
  append?: boolean;
  /** Where it was defined (for the recursion error). */
  loc?: { file: string; line: number } | null;
  /** A target-scope `private` variable: not inherited by prerequisites. */
  private?: boolean;
}

/** Where a value may be overwritten from: higher ranks win (override > command line > file > environment > default). */
const RANK: Record<Origin, number> = {
  default: 0, environment: 1, file: 2, 'environment override': 3, 'command line': 4, override: 5, automatic: 6,
};

export function canSet(old: Var | undefined, origin: Origin): boolean {
  return !old || RANK[origin] >= RANK[old.origin];
}

export class Scope {
  readonly vars = new Map<string, Var>();
  /**
   * The context a lookup from here belongs to (a target's own variables, or
   * the global set): `private` variables are seen only from their own.
   */
  home: Scope;

  constructor(
    public parent: Scope | null,
    ownContext = false,
  ) {
    this.home = ownContext || !parent ? this : parent.home;
  }

  /**
   * The variable visible here: the innermost definition, skipping private
   * ones that belong to a context other than `home` (null: none skipped).
   */
  lookup(name: string, home: Scope | null = this.home): { v: Var; scope: Scope } | null {
    const v = this.vars.get(name);
    if (v && (!v.private || home === null || this.home === home)) return { v, scope: this };
    return this.parent ? this.parent.lookup(name, home) : null;
  }
}
