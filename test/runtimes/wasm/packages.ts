// Installing the WASI packages built into dist/ (clang, ruby) into a VM the way
// a user does: `agentos-software install NAME`, which fetches the package from
// the host's repository (dist/ on the Node host; the page's origin, /pkg/, in
// the browser harness, linked to dist/ by the build).

import type { Machine } from '../../../src/host/api/machine.js';

/** Install `name` into `m` from the host repository; returns agentos-software's stdout and stderr. */
export async function installPackage(m: Machine, name: string): Promise<{ stdout: string; stderr: string }> {
  const r = await m.run(['/opt/agentos/bin/agentos-software', 'install', name]);
  const stdout = new TextDecoder().decode(r.stdout);
  const stderr = new TextDecoder().decode(r.stderr);
  if (r.exitCode !== 0) throw new Error(`agentos-software install ${name}: ${stdout}${stderr}`);
  return { stdout, stderr };
}
