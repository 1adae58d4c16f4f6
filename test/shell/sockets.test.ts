// Sockets from the shell, through AgentVM.exec: `nc -l` in the background
// answered by `nc` and by bash's /dev/tcp redirections, a unix-socket echo,
// UDP, `nc -z`, refused connections and /proc/net. A client waits for the
// server by watching /proc/net (an event in the VM, not a sleep).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';

let vm: AgentVM;

/** Echo every connection's bytes back until its EOF, for two connections. */
const ECHO = `#!/usr/libexec/agentos/js
const s = agentos.sys;
const l = s.socket(1, 1);
s.bind(l, { family: 1, address: agentos.argv[1], port: 0 });
s.listen(l, 4);
const [c] = s.accept(l);
for (let b = s.read(c, 65536); b.length; b = s.read(c, 65536)) s.writeAll(c, b);
s.close(c);
`;

before(async () => {
  vm = new AgentVM();
  await vm.start();
});
after(async () => {
  await vm?.stop();
});

/** Shell that waits until something listens on TCP `port` (its hex in /proc/net/tcp, state 0A). */
const waitTcp = (port: number) => `until grep -q ':${port.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 0A' /proc/net/tcp; do :; done`;
const waitUnix = (path: string) => `until grep -q ' ${path}$' /proc/net/unix; do :; done`;

describe('nc', () => {
  test('nc -l in the background, nc -N as the client: the data arrives and both end', async () => {
    const r = await vm.exec(`nc -l 127.0.0.1 7001 > /tmp/got & ${waitTcp(7001)}; echo hello | nc -N localhost 7001; wait $!; echo "server $?"; cat /tmp/got`);
    assert.deepEqual([r.exitCode, r.stdout, r.stderr], [0, 'server 0\nhello\n', '']);
  });

  test('the server answers: a request and its reply, both half-closing with -N', async () => {
    const r = await vm.exec(`printf 'reply\\n' | nc -N -l 7002 > /tmp/req & ${waitTcp(7002)}; printf 'request\\n' | nc -N 127.0.0.1 7002; wait; cat /tmp/req`);
    assert.deepEqual([r.exitCode, r.stdout], [0, 'reply\nrequest\n']);
  });

  test('a client that half-closes at once still gets what nc -l reads from a stage that writes later', async () => {
    const r = await vm.exec(`rm -f /tmp/go; { until [ -e /tmp/go ]; do :; done; echo late; } | nc -l 7030 & ${waitTcp(7030)}
      nc -N 127.0.0.1 7030 < /dev/null > /tmp/late & touch /tmp/go; wait; cat /tmp/late`);
    assert.deepEqual([r.exitCode, r.stdout, r.stderr], [0, 'late\n', '']);
  });

  test('a listener whose stdin stays open ends when its client has gone both ways', async () => {
    const r = await vm.exec(`rm -f /tmp/ncst; sleep 1000 | { nc -l 7031; echo "nc $?" > /tmp/ncst; } & ${waitTcp(7031)}
      exec 3<>/dev/tcp/127.0.0.1/7031; exec 3>&-; until [ -s /tmp/ncst ]; do :; done; cat /tmp/ncst; kill %1; wait`);
    assert.deepEqual([r.stdout, r.stderr], ['nc 0\n', '']);
  });

  test('a refused connection: status 1 and the reason; -z says whether something listens', async () => {
    const r = await vm.exec('nc 127.0.0.1 7003; echo "status $?"; nc -z 127.0.0.1 7003; echo "z $?"');
    assert.equal(r.stdout, 'status 1\nz 1\n');
    assert.equal(r.stderr, 'nc: connect to 127.0.0.1 port 7003 (tcp) failed: Connection refused\n');
    const z = await vm.exec(`nc -l 7004 >/dev/null & ${waitTcp(7004)}; nc -zv localhost 7004; echo "z $?"; wait`);
    assert.equal(z.stdout, 'z 0\n');
    assert.equal(z.stderr, 'Connection to localhost 7004 port [tcp/*] succeeded!\n');
  });

  test('a unix socket: nc -lU receives from nc -U, and removes its socket file at the end', async () => {
    const r = await vm.exec(`rm -f /tmp/u.sock; nc -lU /tmp/u.sock < /dev/null > /tmp/unix-got & ${waitUnix('/tmp/u.sock')}; echo over-unix | nc -NU /tmp/u.sock; wait; cat /tmp/unix-got; test -e /tmp/u.sock || echo "socket file removed"`);
    assert.deepEqual([r.exitCode, r.stdout, r.stderr], [0, 'over-unix\nsocket file removed\n', '']);
  });

  test('an AF_UNIX echo server (a guest program) answers nc -U', async () => {
    await vm.writeFile('/tmp/echo.js', ECHO);
    const r = await vm.exec(`chmod +x /tmp/echo.js; rm -f /tmp/echo.sock; /tmp/echo.js /tmp/echo.sock & ${waitUnix('/tmp/echo.sock')}; printf 'one\\ntwo\\n' | nc -NU /tmp/echo.sock; wait`);
    assert.deepEqual([r.exitCode, r.stdout, r.stderr], [0, 'one\ntwo\n', '']);
  });

  test('UDP: a datagram to nc -lu', async () => {
    const r = await vm.exec(`nc -lu -q 0 127.0.0.1 7005 < /dev/null > /tmp/udp-got & until grep -q ':1B5D ' /proc/net/udp; do :; done; echo dgram | nc -u -q 0 127.0.0.1 7005; wait; cat /tmp/udp-got`);
    assert.deepEqual([r.exitCode, r.stdout], [0, 'dgram\n']);
  });

  test('/proc/net/tcp lists a listener in Linux\'s format', async () => {
    const r = await vm.exec(`nc -l 127.0.0.1 7006 >/dev/null & ${waitTcp(7006)}; grep ' 0A ' /proc/net/tcp | awk '{print $2, $3, $4}'; nc -z 127.0.0.1 7006; wait`);
    assert.equal(r.stdout, '0100007F:1B5E 00000000:0000 0A\n');
  });
});

describe('ss', () => {
  test('ss -ltn and ss -tn list listeners and connections from /proc/net', async () => {
    const r = await vm.exec(`exec 4>/dev/null; nc -l 127.0.0.1 7020 >/dev/null & ${waitTcp(7020)}; ss -ltn -H; exec 3<>/dev/tcp/127.0.0.1/7020; ss -tn -H | sort; exec 3>&-; wait`);
    assert.equal(r.stderr, '');
    const lines = r.stdout.split('\n').filter(Boolean).map((l) => l.split(/\s+/));
    assert.deepEqual(lines[0], ['LISTEN', '0', '0', '127.0.0.1:7020', '*:*']);
    assert.equal(lines.length, 3, r.stdout);
    assert.ok(lines.slice(1).every((l) => l[0] === 'ESTAB'));
    assert.ok(lines.slice(1).some((l) => l[3] === '127.0.0.1:7020'));
  });
});

describe('/dev/tcp', () => {
  test('exec 3<>/dev/tcp/HOST/PORT: a two-way connection on fd 3', async () => {
    const r = await vm.exec(`printf 'from server\\n' | nc -N -l 7010 > /tmp/dt & ${waitTcp(7010)}; exec 3<>/dev/tcp/127.0.0.1/7010; echo "from shell" >&3; read -r line <&3; echo "got: $line"; exec 3>&-; wait; cat /tmp/dt`);
    assert.deepEqual([r.exitCode, r.stdout, r.stderr], [0, 'got: from server\nfrom shell\n', '']);
  });

  test('echo > /dev/tcp/localhost/PORT; a refused one fails as bash does', async () => {
    const r = await vm.exec(`nc -l 7011 > /tmp/dt2 & ${waitTcp(7011)}; echo hi > /dev/tcp/localhost/7011; wait; cat /tmp/dt2; echo x > /dev/tcp/127.0.0.1/7012; echo "status $?"`);
    assert.equal(r.stdout, 'hi\nstatus 1\n');
    assert.match(r.stderr, /\/dev\/tcp\/127\.0\.0\.1\/7012: Connection refused\n$/);
  });
});
