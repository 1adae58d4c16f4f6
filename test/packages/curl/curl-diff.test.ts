// agentOS curl and wget against the real ones on this machine (Debian's
// `curl` and `wget` packages), both talking to the same local server: stdout and exit status
// must match byte for byte and stderr exactly, once the run-dependent parts
// (Date headers, elapsed times) are masked. The VM's policy allows 127.0.0.1.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { AgentVM } from '../../../src/host/node/index.js';
import { closedPort, startServer, type TestServer } from '../../kernel/net/server.js';

interface Case {
  cmd: string;
  /** Why this case is known to differ from curl (reported, not failed). */
  divergence?: string;
}

const PROGRESS =
  'curl draws its progress meter on stderr whenever stdout is not a terminal; agentOS only when stderr is a terminal (or with -#), so logs and agents never get it';

const CASES: Case[] = [
  { cmd: 'curl -s $U/hello' },
  { cmd: 'curl $U/hello', divergence: PROGRESS },
  { cmd: 'curl -si $U/hello' },
  { cmd: 'curl -sI $U/hello' },
  { cmd: 'curl -s --head $U/status/404; echo $?' },
  { cmd: 'curl -s -o /dev/null -w "%{http_code} %{size_download} %{num_redirects} %{content_type}\\n" $U/hello' },
  { cmd: 'curl -s -w "%{http_code}|%{url_effective}|%{method}|%{exitcode}|%{response_code}\\n" $U/status/500' },
  { cmd: 'curl -s -o /dev/null -w "%header{x-test} %{redirect_url}\\n" "$U/redirect?to=/hello"' },
  { cmd: 'curl -s -D - -o /dev/null $U/hello' },
  { cmd: 'curl -sS -f $U/status/404' },
  { cmd: 'curl -s -f $U/status/404' },
  { cmd: 'curl -f $U/status/404', divergence: PROGRESS },
  { cmd: 'curl -sS --fail-with-body $U/status/404' },
  { cmd: 'curl -s $U/status/404; echo " $?"' },
  { cmd: 'curl -sSL --max-redirs 2 $U/chain/5' },
  { cmd: 'curl -sL -w "%{num_redirects} %{url_effective}\\n" $U/chain/3' },
  { cmd: 'curl -s $U/chain/1; echo "[$?]"' },
  { cmd: 'curl -sIL $U/chain/2' },
  { cmd: 'curl -siL $U/chain/1' },
  { cmd: 'curl -sS http://127.0.0.1:$C/' },
  { cmd: 'curl -s -w "%{http_code} %{exitcode}\\n" http://127.0.0.1:$C/' },
  { cmd: 'curl -s -d a=1 -d b=2 $U/echo' },
  { cmd: 'curl -s --data-raw @x $U/echo' },
  { cmd: 'curl -s -d @form.txt $U/echo' },
  { cmd: 'curl -s --data-binary @form.txt $U/echo' },
  { cmd: 'curl -s --data-urlencode "q=a b&c" --data-urlencode x=é $U/echo' },
  { cmd: 'curl -s -G -d q=1 -d r=2 $U/echo' },
  { cmd: 'curl -s -F a=1 -F "file=@up.bin" -F "text=<form.txt" -F "page=@form.txt;type=text/x-mine" $U/form' },
  { cmd: 'curl -s -F "f=@form.txt;filename=renamed.txt" --form-string "s=@not-a-file;type=x" -F "q=say \\"hi\\"" $U/form' },
  { cmd: 'curl -s -F "x=<-" $U/form < form.txt' },
  { cmd: 'curl -s -F foo $U/form; echo "status $?"' },
  { cmd: 'curl -F a=1 -d b=2 $U/form; echo "status $?"' },
  { cmd: 'curl -sS -F a=@missing.txt $U/form; echo "status $?"' },
  { cmd: 'curl -s -T up.bin $U/echo' },
  { cmd: 'curl -s --data-binary @big.bin $U/echo' },
  { cmd: 'curl -s -d @big.txt -d tail=1 $U/echo' },
  { cmd: 'curl -s --data-urlencode b@up.bin $U/echo' },
  { cmd: 'curl -s -F "f=@big.bin" -F a=1 $U/form' },
  { cmd: 'curl -sL --data-binary @big.bin "$U/redirect?code=307&to=/echo"' },
  { cmd: 'curl -s -X PATCH -d z $U/echo' },
  { cmd: 'curl -s -H "X-A: 1" -H "X-B: two words" -e http://r/ -u u:p $U/echo' },
  { cmd: 'curl -s -H "Content-Type: text/plain" -d x $U/echo' },
  { cmd: 'curl -s -o out.txt $U/hello; cat out.txt' },
  { cmd: 'curl -s -O $U/files/named.txt; cat named.txt' },
  { cmd: 'curl -s --create-dirs -o a/b/c.txt $U/hello; cat a/b/c.txt' },
  { cmd: 'curl -sS -o /nonexistent/x $U/hello' },
  { cmd: 'curl -s -f -o never.txt $U/status/404; ls never.txt 2>&1 | head -c 0; test -e never.txt; echo $?' },
  { cmd: 'curl -s --compressed $U/gzip | head -3' },
  { cmd: 'curl -sS -m 1 "$U/slow?ms=4000"' },
  { cmd: 'curl -sS "ftp2://x"' },
  { cmd: 'curl -sS "http://[bad"', divergence: "curl's URL parser names the bad position; agentOS gives curl's generic message for exit 3" },
  { cmd: 'curl' },
  { cmd: 'curl --bogus' },
  { cmd: 'curl -W' },
  { cmd: 'curl -sS -L' },
  { cmd: 'curl -o' },
  { cmd: 'curl --output' },
  { cmd: 'curl -m x http://a' },
  { cmd: 'curl --max-redirs y http://a' },
  { cmd: 'curl -s $U/hello $U/files/x' },
  { cmd: 'curl -s -o one.txt $U/hello -o two.txt $U/files/y; cat one.txt two.txt' },
  { cmd: 'curl -s -X HEAD -m 2 $U/hello -o /dev/null -w "%{http_code}\\n"', divergence: 'curl waits for a body a HEAD response never has (until -m); agentOS knows the method was HEAD' },
  { cmd: 'wget -q -O - $U/hello' },
  { cmd: 'wget -q -O - $U/status/404; echo $?' },
  { cmd: 'wget -q -O - http://127.0.0.1:$C/; echo $?' },
  { cmd: 'wget -q $U/files/w.txt && wget -q $U/files/w.txt && cat w.txt w.txt.1' },
  { cmd: 'wget -q -O - --header "X-A: 1" --post-data=a=1 $U/echo' },
  { cmd: 'wget -q -O - $U/chain/2' },
  { cmd: 'wget -q -O - --post-file=big.bin $U/echo' },
  { cmd: 'wget -q --spider $U/hello; echo $?; wget -q --spider $U/status/404; echo $?' },
];

let srv: TestServer;
let vm: AgentVM;
let dir: string;
let closed: number;
const VM_DIR = '/tmp/curl-diff';
const FILES: Record<string, string | Uint8Array> = {
  'form.txt': 'a=1\nb=2\r\n',
  'up.bin': new Uint8Array(70_000).map((_, i) => (i * 7) & 0xff),
  // Larger than one syscall's arguments, and not UTF-8: it must reach the server byte for byte.
  'big.bin': new Uint8Array(600_000).map((_, i) => (i * 13 + (i >> 9)) & 0xff),
  'big.txt': Array.from({ length: 20_000 }, (_, i) => `k${i}=é${i}\r\n`).join(''),
};

before(async () => {
  srv = await startServer();
  closed = await closedPort();
  dir = mkdtempSync(join(tmpdir(), 'curl-diff-'));
  vm = new AgentVM({ network: { allow: ['127.0.0.1'] } });
  await vm.start();
  await vm.exec(`mkdir -p ${VM_DIR}`);
  for (const [name, data] of Object.entries(FILES)) {
    writeFileSync(join(dir, name), data);
    await vm.writeFile(`${VM_DIR}/${name}`, data);
  }
});

after(async () => {
  await vm?.stop();
  await srv?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Run-dependent parts: Date headers, elapsed times. */
function mask(s: string): string {
  return s
    .replace(/^Date: .*$/gm, 'Date: <date>')
    .replace(/after \d+ ms/g, 'after N ms')
    .replace(/after \d+ milliseconds/g, 'after N milliseconds');
}

/** The host side, asynchronously: the server runs in this process and must keep answering. */
function runHost(cmd: string): Promise<{ stdout: string; stderr: string; status: number | null }> {
  return new Promise((resolve) => {
    const p = spawn('bash', ['-c', cmd], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, LANG: 'C' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    p.stdout.on('data', (b: Buffer) => out.push(b));
    p.stderr.on('data', (b: Buffer) => err.push(b));
    p.on('close', (status) => resolve({ stdout: Buffer.concat(out).toString('latin1'), stderr: Buffer.concat(err).toString('latin1'), status }));
  });
}

const hasCurl = spawnSync('sh', ['-c', 'command -v curl && command -v wget']).status === 0;

test('curl and wget: differential against the real tools', { skip: !hasCurl && 'no curl or wget on this machine (Debian packages: curl, wget)' }, async () => {
  const results: string[] = [];
  let pass = 0;
  let diverged = 0;
  for (const c of CASES) {
    // Fresh files per case on both sides (outputs of earlier cases must not leak in).
    await runHost('rm -rf out.txt named.txt a one.txt two.txt never.txt w.txt*');
    await vm.exec(`cd ${VM_DIR} && rm -rf out.txt named.txt a one.txt two.txt never.txt w.txt*`);
    const cmd = c.cmd.replaceAll('$U', srv.base).replaceAll('$C', String(closed));
    const host = await runHost(cmd);
    const ours = await vm.execBytes(`cd ${VM_DIR} && ${cmd}`);
    const h = { stdout: mask(host.stdout), stderr: mask(host.stderr), exitCode: host.status ?? -1 };
    const o = { stdout: mask(Buffer.from(ours.stdout).toString('latin1')), stderr: mask(Buffer.from(ours.stderr).toString('latin1')), exitCode: ours.exitCode };
    const same = h.stdout === o.stdout && h.stderr === o.stderr && h.exitCode === o.exitCode;
    if (same) pass++;
    else if (c.divergence) diverged++;
    if (!same) results.push(`${c.divergence ? 'DIVERGES' : 'FAIL'}: ${c.cmd}${c.divergence ? ` (${c.divergence})` : ''}\n  host: ${JSON.stringify(h)}\n  ours: ${JSON.stringify(o)}`);
  }
  console.log(`# curl differential: ${pass}/${CASES.length} cases match the real tools, ${diverged} listed divergences`);
  for (const r of results) console.log(`# ${r.replaceAll('\n', '\n# ')}`);
  assert.equal(pass + diverged, CASES.length, results.filter((r) => r.startsWith('FAIL')).join('\n'));
});
