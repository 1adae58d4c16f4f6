// node --test reporter used by scripts/test.mjs to count results reliably.
//
// It prints nothing. After every event it synchronously rewrites the JSON file
// named by $AGENTOS_NODE_COUNTS with:
//   summary: the runner's own final counts (the `tests/pass/fail/cancelled/skipped/todo`
//            diagnostics it emits at the end of the run, same numbers as TAP's `# pass N`)
//   tally:   our own count of test:pass / test:fail events (tests only, not suites),
//            used as a fallback if the summary never arrives (crashed runner).
// Synchronous writes make the counts survive a runner that dies mid-run.
import { writeFileSync } from 'node:fs';

const dest = process.env.AGENTOS_NODE_COUNTS;
const SUMMARY_KEYS = new Set(['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo', 'duration_ms']);

export default async function* counter(source) {
  const summary = {};
  const tally = { pass: 0, fail: 0, skipped: 0, todo: 0 };
  const save = () => {
    if (dest) writeFileSync(dest, JSON.stringify({ summary, tally }));
  };
  save();
  for await (const event of source) {
    const { type, data } = event;
    if (type === 'test:diagnostic' && data.nesting === 0) {
      const m = /^(\w+) ([\d.]+)$/.exec(data.message);
      if (m && SUMMARY_KEYS.has(m[1])) summary[m[1]] = Number(m[2]);
      else continue;
    } else if ((type === 'test:pass' || type === 'test:fail') && data.details?.type !== 'suite') {
      if (data.skip !== undefined && data.skip !== false) tally.skipped++;
      else if (data.todo !== undefined && data.todo !== false) tally.todo++;
      else if (type === 'test:pass') tally.pass++;
      else tally.fail++;
    } else {
      continue;
    }
    save();
  }
  save();
  yield ''; // a reporter is an async generator of output; this one prints nothing
}
