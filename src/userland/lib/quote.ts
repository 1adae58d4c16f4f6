// GNU's quoting of file names in diagnostics (C locale).
// quote(): always quoted, for "cannot access 'x'" style messages (shell-escape-always).
// quotef(): quoted only when the name needs it, for "cat: x: ..." style messages.

const SAFE = /^[A-Za-z0-9_.,:/@%+=^-]+$/;

function shellQuote(s: string): string {
  if (!s.includes("'")) return `'${s}'`;
  if (!/["$`\\]/.test(s)) return `"${s}"`;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function quote(s: string): string {
  return shellQuote(s);
}

export function quotef(s: string): string {
  return s !== '' && SAFE.test(s) ? s : shellQuote(s);
}
