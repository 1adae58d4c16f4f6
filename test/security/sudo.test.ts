// sudo and su (issue 15, item 8): root inside the VM without a password, and
// what binds it. The policy binds root exactly as it binds the user (read-only
// and hidden paths, the command allowlist, limits), the policy can forbid
// sudo, and a guest has no other way to become root: its own set-user-ID
// file, chmod u+s, a set-user-ID root file in a directory it can write, a
// mount, or setuid(0) after dropping root.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AgentVM } from '../../src/host/node/index.js';
import type { Policy } from '../../src/api/policy.js';

/** A JavaScript guest program (run by the kernel's JS runtime). */
const js = (body: string): string => `#!/usr/libexec/agentos/js\n${body}\n`;
/** Prints its real and effective user. */
const WHOAMI = js('agentos.print(`${agentos.sys.getuid()} ${agentos.sys.geteuid()}\\n`);');
/** mount -t tmpfs on argv[1]; prints "mounted" or the errno's name. */
const MOUNT = js(`try { agentos.sys.mount(agentos.argv[1], 'tmpfs'); agentos.print('mounted\\n'); }
catch (e) { agentos.print((e.code ?? String(e.errno)) + '\\n'); }`);
/** setuid(0), then prints its ids (or the errno). */
const SETUID0 = js(`try { agentos.sys.setuid(0); } catch (e) { agentos.print('setuid: ' + (e.code ?? e.errno) + '\\n'); }
agentos.print(\`\${agentos.sys.getuid()} \${agentos.sys.geteuid()}\\n\`);`);

async function withVM(policy: Policy | undefined, fn: (vm: AgentVM) => Promise<void>): Promise<void> {
  const vm = new AgentVM(policy === undefined ? {} : { policy });
  await vm.start();
  try {
    await fn(vm);
  } finally {
    await vm.stop();
  }
}

async function ok(vm: AgentVM, cmd: string): Promise<string> {
  const r = await vm.exec(cmd);
  assert.equal(r.exitCode, 0, `${cmd}: ${r.stderr}`);
  return r.stdout;
}

describe('sudo and su run as root without a password', () => {
  let vm: AgentVM;
  before(async () => {
    vm = new AgentVM();
    await vm.start();
  });
  after(async () => vm.stop());

  test('sudo CMD, -u, -n, VAR=value, -E, -i, -s; the environment sudo sets', async () => {
    assert.equal(await ok(vm, 'id -u; sudo id -u; sudo -n id -un; sudo -u user id -u; sudo -u "#0" id -u'), '1000\n0\nroot\n1000\n0\n');
    assert.equal(await ok(vm, 'sudo sh -c \'echo "$HOME $USER $SUDO_USER $SUDO_UID"\''), '/root root user 1000\n');
    assert.equal(await ok(vm, 'export KEEPME=k; sudo sh -c \'echo "[$KEEPME]"\'; sudo -E sh -c \'echo "[$KEEPME]"\'; sudo FOO=bar sh -c \'echo $FOO\''), '[]\n[k]\nbar\n');
    assert.equal(await ok(vm, 'cd /tmp; sudo -i pwd; sudo -s pwd; sudo -i; echo $?'), '/root\n/tmp\n0\n');
    // Files root makes are root's; root writes where the user may not.
    assert.equal(await ok(vm, 'sudo sh -c "echo x > /etc/made-by-root"; stat -c "%U %a" /etc/made-by-root; sudo cat /etc/made-by-root'), 'root 644\nx\n');
    assert.equal(await ok(vm, 'cat /proc/self/status | grep ^Uid; sudo grep ^Uid /proc/self/status'), 'Uid:\t1000\t1000\t1000\t1000\nUid:\t0\t0\t0\t0\n');
    assert.equal(await ok(vm, 'command -v sudo su; ls -l /usr/bin/sudo /bin/su | cut -c1-10'), '/opt/agentos/bin/sudo\n/opt/agentos/bin/su\nlrwxrwxrwx\nlrwxrwxrwx\n');
  });

  test('sudo: errors are Unix-shaped (usage, unknown user, command not found)', async () => {
    let r = await vm.exec('sudo');
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /^usage: sudo -h/);
    r = await vm.exec('sudo -u nosuchuser id');
    assert.deepEqual([r.exitCode, r.stderr], [1, 'sudo: unknown user nosuchuser\n']);
    r = await vm.exec('sudo no-such-command');
    assert.deepEqual([r.exitCode, r.stderr], [1, 'sudo: no-such-command: command not found\n']);
    r = await vm.exec('sudo -i -s true');
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /you may not specify both the -i and -s options/);
  });

  test('su, su -c, su -, su USER, a script on stdin', async () => {
    assert.equal(await ok(vm, 'su -c "id -u"; su - -c pwd; su root -c \'echo $HOME\'; echo "id -un" | su'), '0\n/root\n/root\nroot\n');
    assert.equal(await ok(vm, 'sudo su user -c "id -u; echo \\$HOME"'), '1000\n/home/user\n');
    const r = await vm.exec('su nosuchuser');
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /^su: user nosuchuser does not exist/);
  });

  test('root that dropped to a user cannot come back by setuid(0); the user never could', async () => {
    await vm.writeFile('/tmp/setuid0.js', SETUID0, 0o755);
    assert.equal(await ok(vm, '/tmp/setuid0.js'), 'setuid: EPERM\n1000 1000\n');
    assert.equal(await ok(vm, 'sudo -u user /tmp/setuid0.js'), 'setuid: EPERM\n1000 1000\n');
    assert.equal(await ok(vm, 'sudo /tmp/setuid0.js'), '0 0\n');
  });
});

describe('the policy binds root exactly as it binds the user', () => {
  test('read-only and hidden paths, mounts over them', async () => {
    const policy = { fs: { readOnly: ['/srv/ro'], hidden: ['/srv/secret'] } };
    await withVM(policy, async (vm) => {
      await vm.vm.mkdirp('/srv/ro/sub');
      await vm.vm.writeFile('/srv/ro/sub/f', 'data\n');
      await vm.vm.mkdirp('/srv/secret');
      await vm.vm.writeFile('/srv/secret/token', 'TOPSECRET\n');
      await vm.writeFile('/tmp/mount.js', MOUNT, 0o755);
      for (const cmd of ['rm -f /srv/ro/sub/f', 'sh -c "echo x >> /srv/ro/sub/f"', 'chmod 777 /srv/ro/sub/f', 'touch /srv/ro/new', 'mv /srv/ro /srv/elsewhere']) {
        const r = await vm.exec(`sudo ${cmd}`);
        assert.notEqual(r.exitCode, 0, cmd);
        assert.match(r.stderr, /Read-only file system|Device or resource busy/, cmd);
      }
      assert.equal(await ok(vm, 'cat /srv/ro/sub/f; stat -c %a /srv/ro/sub/f'), 'data\n644\n');
      const r = await vm.exec('sudo cat /srv/secret/token');
      assert.equal(r.exitCode, 1);
      assert.match(r.stderr, /No such file or directory/);
      assert.equal(await ok(vm, 'sudo ls /srv'), 'ro\n');
      // A tmpfs over the read-only tree or over a path a rule runs through would make the path name something else.
      assert.equal(await ok(vm, 'sudo /tmp/mount.js /srv/ro; sudo /tmp/mount.js /srv/ro/sub; sudo /tmp/mount.js /srv'), 'EROFS\nEROFS\nEBUSY\n');
      // Elsewhere root mounts as root does (so the refusals above are the policy's).
      assert.equal(await ok(vm, 'mkdir /tmp/m; /tmp/mount.js /tmp/m; sudo /tmp/mount.js /tmp/m'), 'EPERM\nmounted\n');
      assert.equal(await ok(vm, 'cat /srv/ro/sub/f'), 'data\n');
      const audit = await vm.audit();
      assert.ok(audit.some((e) => e.type === 'policy' && e.rule === 'fs.readOnly' && e.path === '/srv/ro'));
    });
  });

  test('the command allowlist: agentos-software cannot re-point an allowed name at another program', async () => {
    const policy = { processes: { allow: ['/opt/agentos/bin/agentos-software', '/opt/agentos/bin/sudo', '/opt/agentos/bin/ls', '/opt/agentos/bin/echo'] } };
    await withVM(policy, async (vm) => {
      for (const cmd of ['agentos-software unlink ls', 'sudo agentos-software unlink ls', 'agentos-software install /tmp', 'agentos-software upgrade x 1.0']) {
        const r = await vm.exec(`${cmd}; echo "status $?"`);
        assert.match(r.stderr, /not allowed under the VM's command rules/, cmd);
        assert.match(r.stdout, /status [1-9]/, cmd);
      }
      assert.equal((await vm.exec('ls -d /opt/agentos/bin/ls && echo still')).stdout, '/opt/agentos/bin/ls\nstill\n');
      assert.equal((await vm.exec('agentos-software list >/dev/null; echo "list $?"')).stdout, 'list 0\n');
    });
  });

  test('the command allowlist: sudo runs only allowed commands, and root cannot rewrite one', async () => {
    const policy = { processes: { allow: ['/opt/agentos/bin/sudo', '/opt/agentos/bin/id', '/opt/agentos/bin/cat', '/opt/agentos/bin/echo', '/opt/agentos/bin/agentos'] } };
    await withVM(policy, async (vm) => {
      assert.equal(await ok(vm, 'sudo id -u'), '0\n');
      let r = await vm.exec('sudo ls /');
      assert.equal(r.exitCode, 1);
      assert.match(r.stderr, /^sudo: unable to execute ls: Permission denied|^sudo: ls: command not found/);
      r = await vm.exec('sudo sh -c "ls /"');
      assert.notEqual(r.exitCode, 0);
      // Root may write root's files, but not the allowed programs, their links or their runtime.
      for (const target of ['/opt/agentos/bin/id', '/usr/libexec/agentos/js', '/opt/agentos/coreutils/current/libexec/coreutils']) {
        r = await vm.exec(`sudo sh -c "echo 'exit 0' > ${target}"`);
        assert.notEqual(r.exitCode, 0, target);
        assert.match(r.stderr, /Read-only file system/, target);
      }
      r = await vm.exec('sudo sh -c "rm -f /opt/agentos/bin/id; echo > /opt/agentos/bin/id"');
      assert.match(r.stderr, /Read-only file system/);
      assert.equal(await ok(vm, 'sudo id -u; id -u'), '0\n1000\n');
      // Nor can it restore or import a root filesystem where an allowed path names its own program.
      for (const op of ['restore s1', 'import /tmp/s.snap s2']) {
        r = await vm.exec(`sudo agentos snapshot ${op}`);
        assert.notEqual(r.exitCode, 0, op);
        assert.match(r.stderr, /not allowed under its filesystem policy/, op);
      }
    });
  });

  test('limits bind root: maxFileSize', async () => {
    await withVM({ processes: { maxFileSize: 1 << 20 } }, async (vm) => {
      // Past the limit the writer dies of SIGXFSZ (128 + 25), as on Linux: root as the user.
      const cmd = 'head -c 2000000 /dev/zero > $HOME/big; echo $?; stat -c %s $HOME/big';
      assert.equal(await ok(vm, `sh -c '${cmd}'; sudo sh -c '${cmd}'`), '153\n1048576\n153\n1048576\n');
    });
  });
});

describe('processes.sudo: false', () => {
  let vm: AgentVM;
  before(async () => {
    vm = new AgentVM({ policy: { processes: { sudo: false } } });
    await vm.start();
  });
  after(async () => vm.stop());

  test('sudo and su say the policy forbids them; nothing runs as root', async () => {
    let r = await vm.exec('sudo id -u');
    assert.deepEqual([r.exitCode, r.stdout, r.stderr], [1, '', "sudo: the VM's policy forbids becoming root (processes.sudo is false)\n"]);
    r = await vm.exec('su -c "id -u"');
    assert.deepEqual([r.exitCode, r.stdout, r.stderr], [1, '', "su: the VM's policy forbids becoming root (processes.sudo is false)\n"]);
  });

  test('no other way to root: own set-user-ID file, chmod u+s, chown, hard link, path swap, mount, setuid(0)', async () => {
    await vm.writeFile('/tmp/whoami.js', WHOAMI, 0o755);
    await vm.writeFile('/tmp/mount.js', MOUNT, 0o755);
    await vm.writeFile('/tmp/setuid0.js', SETUID0, 0o755);
    // Its own file with the bit: it runs as its owner, the user.
    assert.equal(await ok(vm, 'chmod 4755 /tmp/whoami.js; stat -c %A /tmp/whoami.js; /tmp/whoami.js'), '-rwsr-xr-x\n1000 1000\n');
    let r = await vm.exec('chown root /tmp/whoami.js');
    assert.match(r.stderr, /Operation not permitted/);
    const sudo = (await ok(vm, 'readlink -f /opt/agentos/bin/sudo')).trim();
    r = await vm.exec(`chmod u+s ${(await ok(vm, 'readlink -f /opt/agentos/bin/id')).trim()}`);
    assert.match(r.stderr, /Operation not permitted/);
    r = await vm.exec(`ln ${sudo} /home/user/sudo-link`);
    assert.match(r.stderr, /Operation not permitted/);
    assert.equal(await ok(vm, `cp ${sudo} /tmp/sudo-copy; stat -c "%U %a" /tmp/sudo-copy; ln -s ${sudo} /tmp/sudo-sym; /tmp/sudo-sym id -u || true`), 'user 755\n');
    assert.equal(await ok(vm, '/tmp/mount.js /tmp; /tmp/setuid0.js'), 'EPERM\nsetuid: EPERM\n1000 1000\n');
  });

  test('the audit trail records the refusal', async () => {
    await vm.exec('sudo true');
    const audit = await vm.audit();
    assert.ok(audit.some((e) => e.type === 'policy' && e.rule === 'processes.sudo' && e.decision === 'deny'));
  });
});

test('a set-user-ID root file in a directory others can write is not honoured (the path could be swapped)', async () => {
  await withVM(undefined, async (vm) => {
    // The host (root) makes the file: root's and set-user-ID, but /tmp is anyone's to rename in.
    await vm.vm.writeFile('/tmp/root-whoami.js', WHOAMI);
    await vm.vm.syscall('chmod', '/tmp/root-whoami.js', 0o4755);
    await vm.vm.mkdirp('/opt/rootonly');
    await vm.vm.writeFile('/opt/rootonly/whoami.js', WHOAMI);
    await vm.vm.syscall('chmod', '/opt/rootonly/whoami.js', 0o4755);
    assert.equal(await ok(vm, 'stat -c "%U %A" /tmp/root-whoami.js; /tmp/root-whoami.js; /opt/rootonly/whoami.js'), 'root -rwsr-xr-x\n1000 1000\n1000 0\n');
    // Reached through a symlink the user made, the file is still where root controls it.
    assert.equal(await ok(vm, 'ln -s /opt/rootonly/whoami.js /tmp/via; /tmp/via'), '1000 0\n');
  });
});
