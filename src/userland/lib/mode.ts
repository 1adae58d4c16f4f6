// chmod-style mode arguments: octal (755) or symbolic (u+x,go-w,a=r,+X).

/** Apply MODE to an existing mode; null when MODE is not valid. `umask` applies to who-less clauses. */
export function applyMode(spec: string, old: number, isDir: boolean, umask: number): number | null {
  if (/^[0-7]+$/.test(spec)) {
    const n = parseInt(spec, 8);
    if (n > 0o7777) return null;
    // GNU keeps a directory's set-id bits when fewer than 5 octal digits are given.
    return isDir && spec.length < 5 ? n | (old & 0o6000) : n;
  }
  let mode = old & 0o7777;
  for (const clause of spec.split(',')) {
    const m = /^([ugoa]*)((?:[-+=](?:[ugo]|[rwxXst]*))+)$/.exec(clause);
    if (!m) return null;
    const who = m[1];
    let mask = 0;
    if (who === '') mask = 0o7777;
    for (const w of who) mask |= w === 'u' ? 0o4700 : w === 'g' ? 0o2070 : w === 'o' ? 0o1007 : 0o7777;
    const limit = who === '' ? ~umask & 0o7777 : 0o7777;
    for (const op of m[2].match(/[-+=](?:[ugo]|[rwxXst]*)/g) ?? []) {
      const perms = op.slice(1);
      let bits = 0;
      if (/^[ugo]$/.test(perms)) {
        const shift = perms === 'u' ? 6 : perms === 'g' ? 3 : 0;
        const v = (mode >> shift) & 7;
        bits = v | (v << 3) | (v << 6);
      } else {
        for (const p of perms) {
          if (p === 'r') bits |= 0o444;
          else if (p === 'w') bits |= 0o222;
          else if (p === 'x') bits |= 0o111;
          else if (p === 'X' && (isDir || (mode & 0o111) !== 0)) bits |= 0o111;
          else if (p === 's') bits |= 0o6000;
          else if (p === 't') bits |= 0o1000;
        }
      }
      bits &= mask;
      if (op[0] === '+') mode |= bits & limit;
      else if (op[0] === '-') mode &= ~(bits & limit);
      else {
        // '=' clears the who-bits first; directories keep set-id bits unless 's' is named.
        const clear = isDir && !perms.includes('s') ? mask & ~0o6000 : mask;
        mode = (mode & ~clear) | (bits & limit);
      }
    }
  }
  return mode;
}
