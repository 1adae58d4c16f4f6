// The per-file table of an Oils spec run, and the one failure cause the runner
// can tell from the outside: a shell started by a bare name (`bash -c`,
// `cmd | bash`) that cannot start itself again for a subshell or pipeline stage.

import type { Case, Outcome } from './run.js';

export interface FileReport {
  file: string;
  total: number;
  skipped: { c: Case; why: string }[];
  passed: number;
  failed: { c: Case; got: Outcome; cause?: string }[];
}

export const REEXEC = 're-exec';

/** A failure's cause when the outcome shows it; undefined otherwise. */
export function classify(got: Outcome): string | undefined {
  if (/^(?:bash|sh|agentos-shell): [^\n]*(?:No such file or directory|ENOENT)/m.test(got.stderr) && /\b(?:bash|sh)\b/.test(got.stderr)) {
    return REEXEC;
  }
  return undefined;
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '-');

/** A Markdown table: one row per spec file, then the total. */
export function formatTable(reports: FileReport[]): string {
  const rows = [...reports].sort((a, b) => a.file.localeCompare(b.file));
  const lines = ['| spec file | cases | skipped | passed | rate | re-exec failures |', '| --- | ---: | ---: | ---: | ---: | ---: |'];
  let total = 0;
  let skipped = 0;
  let passed = 0;
  let reexec = 0;
  for (const r of rows) {
    const run = r.total - r.skipped.length;
    const re = r.failed.filter((f) => f.cause === REEXEC).length;
    lines.push(`| ${r.file} | ${r.total} | ${r.skipped.length} | ${r.passed}/${run} | ${pct(r.passed, run)} | ${re || ''} |`);
    total += r.total;
    skipped += r.skipped.length;
    passed += r.passed;
    reexec += re;
  }
  const run = total - skipped;
  lines.push(`| **all** | ${total} | ${skipped} | ${passed}/${run} | **${pct(passed, run)}** | ${reexec} |`);
  lines.push('');
  lines.push(`oils spec: overall ${passed}/${run} passed = ${pct(passed, run)} (${skipped} skipped; ${reexec} failures are re-exec of a shell started by a bare name)`);
  return lines.join('\n');
}
