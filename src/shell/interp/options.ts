// `set -o` options and `shopt` options, with their single-letter flags for $-.

export const SET_OPTIONS = {
  allexport: 'a', errexit: 'e', noglob: 'f', hashall: 'h', monitor: 'm', noclobber: 'C', noexec: 'n',
  nounset: 'u', verbose: 'v', xtrace: 'x', pipefail: '', posix: '', ignoreeof: '', interactive: 'i',
  braceexpand: 'B', histexpand: 'H', emacs: '', vi: '', errtrace: 'E', functrace: 'T', notify: 'b', onecmd: 't',
  physical: 'P', privileged: 'p', keyword: 'k', nolog: '', history: '',
} as const;

export type SetOption = keyof typeof SET_OPTIONS;

export const SHOPT_NAMES = [
  'nullglob', 'dotglob', 'globstar', 'extglob', 'failglob', 'nocaseglob', 'nocasematch', 'expand_aliases',
  'lastpipe', 'inherit_errexit', 'xpg_echo', 'sourcepath', 'globasciiranges', 'checkwinsize', 'cmdhist',
  'histappend', 'interactive_comments', 'login_shell', 'progcomp', 'promptvars', 'extquote', 'patsub_replacement',
] as const;

export type ShoptName = (typeof SHOPT_NAMES)[number];

export class Options {
  readonly set = new Map<SetOption, boolean>();
  readonly shopt = new Map<string, boolean>();

  constructor() {
    for (const o of ['braceexpand', 'hashall', 'interactive_comments'] as const) this.set.set(o as SetOption, true);
    for (const o of ['sourcepath', 'globasciiranges', 'extquote', 'cmdhist', 'interactive_comments', 'progcomp', 'promptvars', 'patsub_replacement', 'checkwinsize']) {
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
    let s = '';
    for (const [name, letter] of Object.entries(SET_OPTIONS)) if (letter && this.on(name as SetOption)) s += letter;
    return s;
  }

  flagName(letter: string): SetOption | undefined {
    return (Object.entries(SET_OPTIONS).find(([, l]) => l === letter)?.[0] as SetOption) ?? undefined;
  }

  clone(): Options {
    const o = new Options();
    for (const [k, v] of this.set) o.set.set(k, v);
    for (const [k, v] of this.shopt) o.shopt.set(k, v);
    return o;
  }
}
