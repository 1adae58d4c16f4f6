// The Linux-checked VFS table (test/kernel/vfs-cases.ts) on an OverlayFs root,
// twice: (a) the scratch dir made in the upper layer, over a small frozen
// lower; (b) each case's setup run while building a lower MemFs that is then
// frozen and put under an overlay, so the op meets only lower files and has to
// copy up, white out and merge correctly.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemFs } from '../../../src/kernel/fs/memfs.js';
import { OverlayFs } from '../../../src/kernel/fs/overlayfs.js';
import { ROOT_CRED, Vfs } from '../../../src/kernel/vfs/vfs.js';
import { cases } from '../vfs-cases.js';
import { runLayeredCase } from '../vfs-cases-layered.js';
import { runCase } from '../vfs-cases-runner.js';
import type { CaseResult } from '../vfs-cases-runner.js';
import { VfsTarget } from './case-target.js';

/**
 * Cases where an overlay rightly differs from the tmpfs Linux ran the table
 * on; each must still fail, with the detail given (so a change shows up).
 */
const DIVERGENT: Record<string, { why: string; detail: RegExp }> = {
  'mknod a 0:0 whiteout as non-root': {
    why: 'Linux overlayfs refuses to create a whiteout (ovl_mknod: EPERM), and so do we',
    detail: /expected "ok", got EPERM/,
  },
};

/** A frozen lower with a few files of its own, so "/" is a merged directory. */
function baseLower(): MemFs {
  const fs = new MemFs();
  const vfs = new Vfs(fs);
  vfs.mkdir(ROOT_CRED, vfs.root(), '/etc', 0o755);
  const f = vfs.open(ROOT_CRED, vfs.root(), '/etc/hostname', 0o101, 0o644); // O_WRONLY|O_CREAT
  if (!('inode' in f)) throw new Error('open blocked');
  fs.write(f.inode, 0, new TextEncoder().encode('agentos\n'));
  f.unref();
  fs.readonly = true;
  return fs;
}

function check(name: string, r: CaseResult): void {
  const d = DIVERGENT[name];
  if (!d) return assert.ok(r.pass, r.detail);
  assert.ok(!r.pass && d.detail.test(r.detail), `known divergence (${d.why}) changed: ${r.pass ? 'now passes' : r.detail}`);
}

const counts = { upper: 0, whole: 0, split: [] as string[], skipped: [] as string[] };

for (const c of cases) {
  test(`overlay, scratch in upper: ${c.name}`, () => {
    check(c.name, runCase(new VfsTarget({ rootFs: new OverlayFs(baseLower(), new MemFs()) }), c));
    counts.upper++;
  });
}

for (const c of cases) {
  test(`overlay, setup in lower: ${c.name}`, (t) => {
    const r = runLayeredCase(c, {
      build: () => new VfsTarget(),
      layer: (built, cwd) => {
        const lower = built.vfs.mountTable.rootMount.fs as MemFs;
        lower.readonly = true;
        const target = new VfsTarget({ rootFs: new OverlayFs(lower, new MemFs()), makeScratch: false, cwd: '/' });
        for (const m of built.mounted) target.mountFs(m.path, m.fs);
        target.chdir(cwd);
        return target;
      },
    });
    if ('skip' in r) {
      counts.skipped.push(`${c.name}: ${r.skip}`);
      t.skip(r.skip);
      return;
    }
    check(c.name, r);
    const n = c.setup?.length ?? 0;
    if (r.below === n) counts.whole++;
    else counts.split.push(`${c.name}: ${r.below}/${n} setup ops below`);
  });
}

test('table counts', () => {
  const list = (xs: string[]): string => xs.map((x) => `\n  ${x}`).join('');
  console.log(`overlay table: ${counts.upper}/${cases.length} cases with the scratch dir in the upper;`
    + ` with the setup in the lower: ${counts.whole} whole, ${counts.split.length} split${list(counts.split)}`
    + `\n${counts.skipped.length} skipped${list(counts.skipped)}`);
  assert.equal(counts.upper, cases.length);
  assert.equal(counts.whole + counts.split.length + counts.skipped.length, cases.length);
});
