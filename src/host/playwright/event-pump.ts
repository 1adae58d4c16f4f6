// Page → Node events and approval requests without Playwright bindings
// (Firefox, WebKit): the page queues them where the sandbox page looks for
// its bindings, and Node long-polls the queue. WebKitWebDriver and Marionette both
// run scripts concurrently, so the waiting poll never holds up a call.

import type { Answer, ApprovalRequest, SandboxEvent } from './protocol.js';

type Item = { event: SandboxEvent } | { ask: number; request: ApprovalRequest };

/** Page side (source, run once per page): the two bindings and `__agentosPump`. Arg: [eventBinding, approvalBinding]. */
export const installPump = `([eventName, approveName]) => {
  const queue = [];
  const answers = new Map();
  let wake = null;
  let next = 1;
  const push = (item) => { queue.push(item); if (wake) { wake(); wake = null; } };
  globalThis[eventName] = (event) => { push({ event }); return Promise.resolve(); };
  globalThis[approveName] = (request) => new Promise((answer) => { const ask = next++; answers.set(ask, answer); push({ ask, request }); });
  globalThis.__agentosPump = {
    take: (ms) => new Promise((ok) => {
      const give = () => ok(queue.splice(0));
      if (queue.length) return give();
      const timer = setTimeout(() => { wake = null; give(); }, ms);
      wake = () => { clearTimeout(timer); give(); };
    }),
    answer: (ask, a) => { answers.get(ask)?.(a); answers.delete(ask); },
  };
}`;

const TAKE = '(ms) => globalThis.__agentosPump.take(ms)';
const ANSWER = '([ask, a]) => globalThis.__agentosPump.answer(ask, a)';

export interface PumpTarget {
  event(e: SandboxEvent): void;
  approve(r: ApprovalRequest): Promise<Answer>;
  /** False once the VM stopped or lost its page: the pump ends. */
  alive(): boolean;
}

interface Evaluator {
  evaluate<T>(fn: string, arg?: unknown): Promise<T>;
}

/** Deliver the page's events in order until the target is gone; a failed poll (page gone) ends it. */
export async function pumpEvents(page: Evaluator, to: PumpTarget): Promise<void> {
  while (to.alive()) {
    let items: Item[];
    try {
      items = await page.evaluate<Item[]>(TAKE, 5_000);
    } catch {
      return;
    }
    for (const item of items) {
      if ('event' in item) to.event(item.event);
      else void to.approve(item.request).then((a) => page.evaluate(ANSWER, [item.ask, a]).catch(() => {}));
    }
  }
}
