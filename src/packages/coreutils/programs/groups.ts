// groups [USERNAME]...: print group memberships (from /etc/passwd and /etc/group).

import { command, groupName, groups as groupDb, quote, users } from '../../../userland/lib/index.js';

const USAGE = `Usage: groups [OPTION]... [USERNAME]...
Print group memberships for each USERNAME or, if no USERNAME is specified, for
the current process (which may differ if the groups database has changed).
      --help     display this help and exit
      --version  output version information and exit
`;

export const groups = command({ name: 'groups', usage: USAGE }, (c) => {
  const names = (gids: number[]) => gids.map((g) => groupName(c.sys, g) ?? String(g)).join(' ');
  /** The primary group first, then each group listing the user as a member (once each). */
  const memberships = (user: string, gid: number) => [
    gid,
    ...groupDb(c.sys).filter((g) => g.members.includes(user) && g.id !== gid).map((g) => g.id),
  ];
  if (c.operands.length === 0) {
    const uid = c.sys.getuid();
    const user = users(c.sys).find((u) => u.id === uid)?.name ?? '';
    c.out.write(`${names(memberships(user, c.sys.getgid()))}\n`);
    return;
  }
  for (const name of c.operands) {
    const u = users(c.sys).find((e) => e.name === name);
    if (!u) {
      c.error(`${quote(name)}: no such user`);
      continue;
    }
    c.out.write(`${name} : ${names(memberships(name, u.gid))}\n`);
  }
});
