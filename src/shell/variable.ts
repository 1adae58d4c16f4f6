// A shell variable's record: what the interpreter's store (interp/vars.ts)
// keeps and the expander reads (attributes for ${x@a}, declare -p text).

export interface Var {
  /** Scalar value, or undefined for an array/unset variable. */
  value?: string;
  /** Indexed array (sparse: index → value) when `indexed`. */
  indexed?: Map<number, string>;
  /** Associative array (insertion-ordered; listed in bash's order by assocEntries) when `assoc`. */
  assoc?: Map<string, string>;
  exported?: boolean;
  readonly?: boolean;
  integer?: boolean;
  lower?: boolean;
  upper?: boolean;
  /** `declare x` without a value: exists with attributes but is unset. */
  declaredOnly?: boolean;
  /** `declare -n`: the name of the variable this one refers to. */
  nameref?: string;
}
