// POSIX path arithmetic for absolute paths and repository-relative paths
// (which never start with '/' and use '' for the top).

/** Resolve `.`/`..` and duplicate slashes of an absolute path. */
export function normalize(abs: string): string {
  const out: string[] = [];
  for (const part of abs.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return '/' + out.join('/');
}

export function resolve(cwd: string, p: string): string {
  return normalize(p.startsWith('/') ? p : `${cwd}/${p}`);
}

/** `path` relative to `from` (both absolute), `..` steps included; '.' when equal. */
export function relative(from: string, path: string): string {
  const a = from.split('/').filter(Boolean);
  const b = path.split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const r = [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
  return r === '' ? '.' : r;
}

/** Join repo-relative parts ('' is the top). */
export const joinRel = (dir: string, name: string): string => (dir === '' ? name : `${dir}/${name}`);

export function dirname(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
}

export function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

/** git's order for paths: bytewise on UTF-8 (code unit order differs only past the BMP). */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
