// The locale, as setlocale(LC_ALL, "") decides it from the environment: the
// first of LC_ALL, the category's own variable (LC_CTYPE, ...) and LANG that is
// set and not empty names it. `C`, `POSIX` and anything we do not know are the
// byte locale; a name whose codeset is UTF-8 (`C.UTF-8`, `en_US.utf8`...) is
// the UTF-8 locale, where tools work on characters instead of bytes.

export type Category = 'LC_CTYPE' | 'LC_COLLATE' | 'LC_MESSAGES' | 'LC_NUMERIC' | 'LC_TIME';

/** The locale name in effect for `category` ('C' when nothing is set). */
export function localeName(env: Readonly<Record<string, string | undefined>>, category: Category = 'LC_CTYPE'): string {
  return env.LC_ALL || env[category] || env.LANG || 'C';
}

/** Whether the character type locale (or `category`'s) is UTF-8. */
export function isUtf8Locale(env: Readonly<Record<string, string | undefined>>, category: Category = 'LC_CTYPE'): boolean {
  return /\.utf-?8(?:@|$)/i.test(localeName(env, category));
}
