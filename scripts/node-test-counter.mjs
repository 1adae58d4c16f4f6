// node --test reporter used by scripts/test.mjs to count results reliably.
//
// It prints nothing. After every event it synchronously rewrites the JSON file
// named by $AGENTOS_NODE_COUNTS with:
//   summary: the runner's own final counts (the `tests/pass/fail/cancelled/skipped/todo`
//            diagnostics it emits at the end of the run, same numbers as TAP's `# pass N`)
//   tally:   our own count of test:pass / test:fail events (tests only, not suites),
//            used as a fallback if the summary never arrives (crashed runner).
//   failures: name, file and error of each failed test, so the summary can
//            repeat them at the end of the output (where CI logs get read).
// Synchronous writes make the counts survive a runner that dies mid-run.
import { writeFileSync } from 'node:fs';

const dest = process.env.AGENTOS_NODE_COUNTS;
const SUMMARY_KEYS = new Set(['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo', 'duration_ms']);

export default async function* counter(source) {
  const summary = {};
  const tally = { pass: 0, fail: 0, skipped: 0, todo: 0 };
  const failures = [];
  const save = () => {
    if (dest) writeFileSync(dest, JSON.stringify({ summary, tally, failures }));
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
      else {
        tally.fail++;
        failures.push({ name: data.name, file: data.file, error: describe(data.details?.error) });
      }
    } else {
      continue;
    }
    save();
  }
  save();
  yield ''; // a reporter is an async generator of output; this one prints nothing
}

/** The test's own error (node:test wraps it as the cause of ERR_TEST_FAILURE) with the top of its stack. */
function describe(err) {
  if (!err) return '';
  const e = err.code === 'ERR_TEST_FAILURE' && err.cause ? err.cause : err;
  return String(e.stack ?? e.message ?? e).split('\n').slice(0, 12).join('\n').slice(0, 4000);
}
