// The directory tree the glob tests run in (on the host, for bash and for us).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function makeTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'expand-glob-'));
  for (const d of ['dir', 'dir/sub', 'd2', 'd2/sub', 'a1', '.hdir']) mkdirSync(join(root, d));
  const files = [
    'a.txt', 'b.txt', 'B.txt', 'ab.txt', 'abc.txt', 'c', 'Cfile', '.hidden', '*.txt', 'a', 'x.c',
    'dir/x.c', 'dir/y.c', 'dir/.z.c', 'dir/sub/z.c', 'd2/sub/w.c', 'a1/f', '.hdir/h.c', '[]',
  ];
  for (const f of files) writeFileSync(join(root, f), '');
  return root;
}
