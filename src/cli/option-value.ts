// The value of a CLI option that takes one. Like GNU getopt_long, a missing
// value is a usage error; unlike it, so is a value that looks like an option
// (`--state -- true` must not make a directory named "--"). A negative number
// is a value (the option then says whether it takes one).

/** args[i + 1] as the value of option args[i]; throws the usage message otherwise. */
export function optionValue(args: string[], i: number): string {
  const value = args[i + 1];
  if (value === undefined || value === '' || (value.startsWith('-') && !/^-\d/.test(value))) {
    throw new Error(`option '${args[i]}' requires an argument${value ? ` (got '${value}')` : ''}`);
  }
  return value;
}
