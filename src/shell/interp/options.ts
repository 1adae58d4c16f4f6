// `set -o` options and `shopt` options, with their single-letter flags for $-.

export const SET_OPTIONS = {
  allexport: 'a', braceexpand: 'B', emacs: '', errexit: 'e', errtrace: 'E', functrace: 'T', hashall: 'h', histexpand: 'H',
  history: '', ignoreeof: '', 'interactive-comments': '', keyword: 'k', monitor: 'm', noclobber: 'C', noexec: 'n',
  noglob: 'f', nolog: '', notify: 'b', nounset: 'u', onecmd: 't', physical: 'P', pipefail: '', posix: '',
  privileged: 'p', verbose: 'v', vi: '', xtrace: 'x',
  // Not a `set -o` name in bash: only the `i` of $-.
  interactive: 'i',
} as const;

export type SetOption = keyof typeof SET_OPTIONS;

/** The option a single-letter flag (`set -e`, `bash -x`) names; no shell state needed. */
export function flagName(letter: string): SetOption | undefined {
  return (Object.entries(SET_OPTIONS).find(([, l]) => l === letter)?.[0] as SetOption) ?? undefined;
}

/** The `set -o` names bash lists (alphabetical), for set -o, SHELLOPTS and shopt -o. */
export const SET_OPTION_NAMES = (Object.keys(SET_OPTIONS) as SetOption[]).filter((n) => n !== 'interactive');

/** bash 5.2's shopt names, alphabetical as `shopt` lists them. */
export const SHOPT_NAMES = [
  'autocd', 'assoc_expand_once', 'cdable_vars', 'cdspell', 'checkhash', 'checkjobs', 'checkwinsize', 'cmdhist', 'compat31',
  'compat32', 'compat40', 'compat41', 'compat42', 'compat43', 'compat44', 'complete_fullquote', 'direxpand', 'dirspell',
  'dotglob', 'execfail', 'expand_aliases', 'extdebug', 'extglob', 'extquote', 'failglob', 'force_fignore', 'globasciiranges',
  'globskipdots', 'globstar', 'gnu_errfmt', 'histappend', 'histreedit', 'histverify', 'hostcomplete', 'huponexit',
  'inherit_errexit', 'interactive_comments', 'lastpipe', 'lithist', 'localvar_inherit', 'localvar_unset', 'login_shell',
  'mailwarn', 'no_empty_cmd_completion', 'nocaseglob', 'nocasematch', 'noexpand_translation', 'nullglob',
  'patsub_replacement', 'progcomp', 'progcomp_alias', 'promptvars', 'restricted_shell', 'shift_verbose', 'sourcepath',
  'varredir_close', 'xpg_echo',
] as const;

export type ShoptName = (typeof SHOPT_NAMES)[number];

/** A Map that counts its changes, so readers can cache what they derive from it. */
class CountedMap<K, V> extends Map<K, V> {
  changes = 0;
  override set(k: K, v: V): this {
    this.changes++;
    return super.set(k, v);
  }
  override delete(k: K): boolean {
    this.changes++;
    return super.delete(k);
  }
  override clear(): void {
    this.changes++;
    super.clear();
  }
}

export class Options {
  readonly set = new CountedMap<SetOption, boolean>();
  readonly shopt = new CountedMap<string, boolean>();

  /** Changes so far to either set of options: a cache of derived values is good while this stays the same. */
  get changes(): number {
    return this.set.changes + this.shopt.changes;
  }

  constructor() {
    for (const o of ['braceexpand', 'hashall', 'interactive-comments'] as const) this.set.set(o, true);
    for (const o of [
      'checkwinsize', 'cmdhist', 'complete_fullquote', 'extquote', 'force_fignore', 'globasciiranges', 'globskipdots',
      'hostcomplete', 'interactive_comments', 'patsub_replacement', 'progcomp', 'promptvars', 'sourcepath',
    ]) {
      this.shopt.set(o, true);
    }
  }

  on(name: SetOption): boolean {
    return this.set.get(name) ?? false;
  }

  shoptOn(name: string): boolean {
    return this.shopt.get(name) ?? false;
  }

  /** $- */
  flags(): string {
    // In bash's order.
    return [...'abefhikmnptuvxBCEHPT'].filter((c) => this.on(flagName(c)!)).join('');
  }

  /** $SHELLOPTS: the enabled `set -o` options, colon-separated. */
  shellopts(): string {
    return SET_OPTION_NAMES.filter((n) => this.on(n)).join(':');
  }

  /** $BASHOPTS: the enabled shopt options, colon-separated. */
  bashopts(): string {
    return SHOPT_NAMES.filter((n) => this.shoptOn(n)).join(':');
  }

  clone(): Options {
    const o = new Options();
    for (const [k, v] of this.set) o.set.set(k, v);
    for (const [k, v] of this.shopt) o.shopt.set(k, v);
    return o;
  }
}
