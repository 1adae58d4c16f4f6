// The clang package (dist/clang/) in a machine of its own: the case the
// browser runs (e2e/wasm.spec.ts); the Node host's tests are clang.test.ts.

import { eq } from '../../kernel/expect.js';
import type { SuiteCase } from '../../kernel/suite-types.js';
import { installPackage } from './packages.js';

const dec = new TextDecoder();

export const clangCases: SuiteCase[] = [
  {
    name: 'cc: cc hello.c -o hello && ./hello after installing the clang package',
    async run(m) {
      await installPackage(m, 'clang');
      await m.writeFile('/home/user/hello.c', '#include <stdio.h>\nint main(int argc, char **argv) { printf("hello from cc, %d args\\n", argc); return 3; }\n');
      const r = await m.run(['/bin/sh', '-c', 'cc hello.c -o hello && ./hello a b; echo "status $?"'], {
        cwd: '/home/user', uid: 1000, env: { PWD: '/home/user' },
      });
      eq([dec.decode(r.stdout), dec.decode(r.stderr), r.exitCode], ['hello from cc, 3 args\nstatus 3\n', '', 0], 'cc and run');
    },
  },
];
