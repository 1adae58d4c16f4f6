// signals: catch SIGUSR1 and SIGTERM, report them, and show that a blocking sleep returns EINTR.
// Prints "ready" once the handlers are installed, then sleeps up to 10 s. With an
// argument N it first spins N ms without a syscall, so a signal sent meanwhile is
// still pending when the sleep starts: the sleep must not park (EINTR at once).
import type { AgentosApi } from '../../src/runtimes/js/api.js';

export default function main(os: AgentosApi): void {
  let caught = 0;
  const onSignal = (sig: number) => {
    caught++;
    os.print(`caught ${sig}\n`);
  };
  os.signal(10, onSignal); // SIGUSR1
  os.signal(15, onSignal); // SIGTERM
  os.print('ready\n');
  const spin = Number(os.argv[1] ?? 0);
  for (const end = Date.now() + spin; Date.now() < end; );
  if (spin && caught) {
    os.print('early\n'); // the signal came before the spin: nothing left to show
    os.exit(caught);
  }
  try {
    os.sys.sleep(10_000);
    os.print('slept\n');
  } catch (e) {
    if (!(e instanceof os.SysError)) throw e;
    os.print(`sleep: ${e.code}\n`);
  }
  os.exit(caught);
}
