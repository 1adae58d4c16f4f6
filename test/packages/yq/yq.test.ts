// agentOS yq (mikefarah yq v4 style) in a booted VM. There is no oracle on
// the test machine (Debian's yq is the Python jq wrapper), so each case
// states the output mikefarah yq v4 gives; the known differences from it are
// listed in the package's decision record (docs/decisions/0010-jq.md).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runVm, setupFixtures, teardownFixtures, type Fixture } from '../oracle.js';

let fx: Fixture | null = null;

const SAMPLE = `# top comment
name: app # the name
version: 1.0
list:
  - a
  - b # second
nested:
  x: {y: 1, z: [1, 2]}
`;

before(async () => {
  fx = await setupFixtures('agentos-yq-', {
    'sample.yml': SAMPLE,
    'multi.yml': 'a: 1\n---\na: 2\n',
    'data.json': '{"a":{"b":[1,2]},"c":"x"}\n',
    'anchors.yml': 'base: &b {x: 1, y: 2}\nderived:\n  <<: *b\n  y: 3\nref: *b\n',
    'edit.yml': '# keep me\nkey: old # inline\nother: 1\n',
    'bad.yml': 'a: [1, 2\n',
  });
});

after(async () => {
  await teardownFixtures(fx);
});

interface Case {
  cmd: string;
  out: string;
  status?: number;
}

const CASES: Case[] = [
  { cmd: "yq '.name' sample.yml", out: 'app\n' },
  { cmd: "yq e '.name' sample.yml", out: 'app\n' },
  { cmd: "yq eval '.list[1]' sample.yml", out: 'b\n' },
  { cmd: "yq '.list' sample.yml", out: '- a\n- b # second\n' },
  { cmd: "yq '.nested.x.z[0]' sample.yml", out: '1\n' },
  { cmd: "yq '.missing' sample.yml", out: 'null\n' },
  { cmd: "yq '.version' sample.yml", out: '1.0\n' },
  { cmd: "yq '.list | length' sample.yml", out: '2\n' },
  { cmd: "yq 'keys' sample.yml", out: '- name\n- version\n- list\n- nested\n' },
  {
    cmd: "yq '.name = \"web\"' sample.yml",
    out: '# top comment\nname: web # the name\nversion: 1.0\nlist:\n  - a\n  - b # second\nnested:\n  x: {y: 1, z: [1, 2]}\n',
  },
  {
    cmd: "yq '.list += [\"c\"]' sample.yml",
    out: '# top comment\nname: app # the name\nversion: 1.0\nlist:\n  - a\n  - b # second\n  - c\nnested:\n  x: {y: 1, z: [1, 2]}\n',
  },
  { cmd: "yq -o json '.nested' sample.yml", out: '{\n  "x": {\n    "y": 1,\n    "z": [\n      1,\n      2\n    ]\n  }\n}\n' },
  { cmd: "yq -o=json -I=0 '.nested' sample.yml", out: '{"x":{"y":1,"z":[1,2]}}\n' },
  { cmd: "yq -P '.nested' sample.yml", out: 'x:\n  y: 1\n  z:\n    - 1\n    - 2\n' },
  { cmd: "yq -o props '.nested' sample.yml", out: 'x.y = 1\nx.z.0 = 1\nx.z.1 = 2\n' },
  { cmd: "yq '.a' multi.yml", out: '1\n---\n2\n' },
  { cmd: "yq -N '.a' multi.yml", out: '1\n2\n' },
  { cmd: "yq ea '. as $item ireduce ({}; . * $item)' multi.yml", out: 'a: 2\n' },
  { cmd: "yq '.a.b[1]' data.json", out: '2\n' },
  { cmd: 'yq -P . data.json', out: 'a:\n  b:\n    - 1\n    - 2\nc: x\n' },
  { cmd: "yq -o json '.c' data.json", out: '"x"\n' },
  { cmd: "yq '.derived.x, .derived.y, .ref.y' anchors.yml", out: '1\n3\n2\n' },
  { cmd: "yq -n '.a.b = 1'", out: 'a:\n  b: 1\n' },
  { cmd: "yq -n '[1, 2] | map(. * 10)'", out: '- 10\n- 20\n' },
  { cmd: "FOO=bar yq -n 'env(FOO)'", out: 'bar\n' },
  { cmd: "N=12 yq -n 'env(N) + 1, strenv(N)'", out: '13\n12\n' },
  { cmd: "yq '.name | tag' sample.yml", out: '!!str\n' },
  { cmd: "yq '.nested | tag' sample.yml", out: '!!map\n' },
  { cmd: "yq '.version | tag' sample.yml", out: '!!float\n' },
  { cmd: "yq '.name | upcase' sample.yml", out: 'APP\n' },
  { cmd: "yq '.list[] | select(. == \"a\")' sample.yml", out: 'a\n' },
  { cmd: "yq '.nested.x | to_entries | map(.key)' sample.yml", out: '- y\n- z\n' },
  { cmd: "yq -n '{\"b\": 1, \"a\": {\"d\": 1, \"c\": 2}} | sort_keys(..)'", out: 'a:\n  c: 2\n  d: 1\nb: 1\n' },
  { cmd: "yq -n '{\"a\": [1]} | to_yaml'", out: 'a:\n  - 1\n\n' },
  { cmd: "yq -n '\"a: 1\" | from_yaml | .a'", out: '1\n' },
  { cmd: "yq -e '.missing' sample.yml", out: 'null\n', status: 1 },
  { cmd: "yq -e '.name' sample.yml", out: 'app\n' },
  { cmd: "yq -i '.key = \"new\"' edit.yml && cat edit.yml", out: '# keep me\nkey: new # inline\nother: 1\n' },
  { cmd: "yq -i 'del(.other)' edit.yml && cat edit.yml", out: '# keep me\nkey: new # inline\n' },
  { cmd: 'cat sample.yml | yq .name', out: 'app\n' },
  { cmd: "echo '{\"a\":1}' | yq -o json", out: '{\n  "a": 1\n}\n' },
  { cmd: 'yq . bad.yml >/dev/null 2>&1; echo $?', out: '1\n' },
  { cmd: "yq '.nope(' sample.yml >/dev/null 2>&1; echo $?", out: '1\n' },
  { cmd: "yq '.' missing.yml 2>&1; echo $?", out: 'Error: open missing.yml: no such file or directory\n1\n' },
  { cmd: 'yq --version', out: 'yq (agentOS yq, mikefarah yq v4 compatible) version v4.44.3\n' },
];

test('yq: mikefarah-style cases', async () => {
  const failures: string[] = [];
  for (const c of CASES) {
    const r = await runVm(fx!, { cmd: c.cmd });
    if (r.stdout !== c.out || r.exitCode !== (c.status ?? 0)) {
      failures.push(`✗ ${c.cmd}\n    want ${JSON.stringify(c.out)} (${c.status ?? 0})\n    got  ${JSON.stringify(r.stdout)} (${r.exitCode}) ${JSON.stringify(r.stderr)}`);
    }
  }
  console.log(`yq: ${CASES.length - failures.length}/${CASES.length} passed`);
  assert.equal(failures.length, 0, failures.join('\n'));
});
