// signals: catch SIGUSR1 and SIGTERM, report them, and show that a blocking sleep returns EINTR.
// Prints "ready" once the handlers are installed, then sleeps up to 10 s.
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
  try {
    os.sys.sleep(10_000);
    os.print('slept\n');
  } catch (e) {
    if (!(e instanceof os.SysError)) throw e;
    os.print(`sleep: ${e.code}\n`);
  }
  os.exit(caught);
}
