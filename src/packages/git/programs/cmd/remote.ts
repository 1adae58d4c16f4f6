// git remote [-v | --verbose]
// git remote add [-f] [-t <branch>] [-m <master>] <name> <url>
// git remote rename <old> <new>
// git remote remove <name>
// git remote get-url [--push] [--all] <name>
// git remote set-url [--push] <name> <newurl>
// git remote show <name>
//
// Manage the set of tracked repositories (remote.<name>.* configuration
// and refs/remotes/<name>/).

import * as git from 'isomorphic-git';
import type { Ctx } from '../core/ctx.js';
import { parseOptions, UsageFail } from '../core/opts.js';
import { deleteRef, remoteBranches, remotes, resolveRef, writeRef } from '../core/refs.js';

const USAGE = `usage: git remote [-v | --verbose]
   or: git remote add [-t <branch>] [-m <master>] [-f] [--tags | --no-tags] [--mirror=<fetch|push>] <name> <url>
   or: git remote rename [--[no-]progress] <old> <new>
   or: git remote remove <name>
   or: git remote set-head <name> (-a | --auto | -d | --delete | <branch>)
   or: git remote [-v | --verbose] show [-n] <name>
   or: git remote prune [-n | --dry-run] <name>
   or: git remote [-v | --verbose] update [-p | --prune] [(<group> | <remote>)...]
   or: git remote set-branches [--add] <name> <branch>...
   or: git remote get-url [--push] [--all] <name>
   or: git remote set-url [--push] <name> <newurl> [<oldurl>]
   or: git remote set-url --add <name> <newurl>
   or: git remote set-url --delete <name> <url>
`;

const validName = (n: string) => /^[^\s/\\:*?[~^]+$/.test(n) && !n.startsWith('-') && !n.includes('..');

export async function remote(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(args, { 'v|verbose': 'bool', f: 'bool', t: 'str', m: 'str', '|tags': 'bool', '|push': 'bool', '|all': 'bool', '|add': 'bool', '|delete': 'bool', n: 'bool' }, USAGE, { stopAtOperand: true });
  ctx.repo();
  const [sub, ...rest] = o.operands;
  const sp = parseOptions(rest, { 'v|verbose': 'bool', f: 'bool', t: 'str', m: 'str', '|tags': 'bool', '|no-tags': 'bool', '|push': 'bool', '|all': 'bool', '|add': 'bool', '|delete': 'bool', n: 'bool', 'a|auto': 'bool', 'd': 'bool' }, USAGE);
  const list = await remotes(ctx);
  const names = list.map((r) => r.remote).sort();
  const exists = (n: string) => names.includes(n);
  const noSuch = (n: string): number => {
    ctx.error(`No such remote: '${n}'`);
    return 2;
  };
  switch (sub) {
    case undefined:
      for (const n of names) {
        if (!o.has('verbose')) ctx.print(`${n}\n`);
        else {
          const url = ctx.config(`remote.${n}.url`) ?? '';
          const push = ctx.config(`remote.${n}.pushurl`) ?? url;
          ctx.print(`${n}\t${url} (fetch)\n${n}\t${push} (push)\n`);
        }
      }
      return 0;
    case 'add': {
      const [name, url] = sp.operands;
      if (sp.operands.length !== 2) throw new UsageFail(USAGE, 129);
      if (!validName(name)) ctx.fatal(`'${name}' is not a valid remote name`);
      if (exists(name)) {
        ctx.error(`remote ${name} already exists.`);
        return 3;
      }
      if (sp.has('f')) ctx.fatal('fetching is not available in this VM (network access is disabled)');
      ctx.editConfig('local', (f) => {
        f.set(`remote.${name}.url`, url);
        f.set(`remote.${name}.fetch`, `+refs/heads/*:refs/remotes/${name}/*`, { add: true });
      });
      return 0;
    }
    case 'remove':
    case 'rm': {
      const [name] = sp.operands;
      if (!exists(name)) return noSuch(name);
      for (const b of await remoteBranches(ctx, name)) await deleteRef(ctx, `refs/remotes/${name}/${b}`);
      ctx.editConfig('local', (f) => {
        f.removeSection(`remote.${name}`);
        for (const e of [...f.entries]) if (/^branch\..*\.remote$/.test(e.key) && e.value === name) {
          const b = e.key.slice(7, -7);
          f.unset(`branch.${b}.remote`);
          f.unset(`branch.${b}.merge`);
        }
      });
      return 0;
    }
    case 'rename': {
      const [from, to] = sp.operands;
      if (!exists(from)) return noSuch(from);
      if (exists(to)) ctx.fatal(`remote ${to} already exists.`);
      if (!validName(to)) ctx.fatal(`'${to}' is not a valid remote name`);
      for (const b of await remoteBranches(ctx, from)) {
        const oid = await resolveRef(ctx, `refs/remotes/${from}/${b}`);
        if (oid && b !== 'HEAD') await writeRef(ctx, `refs/remotes/${to}/${b}`, oid);
        await deleteRef(ctx, `refs/remotes/${from}/${b}`);
      }
      ctx.editConfig('local', (f) => {
        f.renameSection(`remote.${from}`, `remote.${to}`);
        f.unset(`remote.${to}.fetch`, true);
        f.set(`remote.${to}.fetch`, `+refs/heads/*:refs/remotes/${to}/*`, { add: true });
        for (const e of [...f.entries]) if (/^branch\..*\.remote$/.test(e.key) && e.value === from) f.set(`branch.${e.key.slice(7, -7)}.remote`, to);
      });
      return 0;
    }
    case 'get-url': {
      const [name] = sp.operands;
      if (!exists(name)) return noSuch(name);
      const key = sp.has('push') && ctx.config(`remote.${name}.pushurl`) !== undefined ? 'pushurl' : 'url';
      const urls = ctx.configAll(`remote.${name}.${key}`);
      for (const u of sp.has('all') ? urls : urls.slice(-1)) ctx.print(`${u}\n`);
      return 0;
    }
    case 'set-url': {
      const [name, url] = sp.operands;
      if (!exists(name)) return noSuch(name);
      ctx.editConfig('local', (f) => f.set(`remote.${name}.${sp.has('push') ? 'pushurl' : 'url'}`, url, { add: sp.has('add') }));
      return 0;
    }
    case 'show': {
      for (const name of sp.operands.length ? sp.operands : names) {
        if (!exists(name)) return noSuch(name);
        const url = ctx.config(`remote.${name}.url`) ?? '';
        ctx.print(`* remote ${name}\n  Fetch URL: ${url}\n  Push  URL: ${ctx.config(`remote.${name}.pushurl`) ?? url}\n`);
        const bs = (await remoteBranches(ctx, name)).filter((b) => b !== 'HEAD');
        if (bs.length) ctx.print(`  Remote branch${bs.length > 1 ? 'es' : ''}:\n${bs.map((b) => `    ${b} tracked\n`).join('')}`);
      }
      return 0;
    }
    case 'set-head': {
      const [name, br] = sp.operands;
      if (!exists(name)) return noSuch(name);
      if (sp.has('d')) await deleteRef(ctx, `refs/remotes/${name}/HEAD`);
      else if (br) await git.writeRef({ ...ctx.iso(), ref: `refs/remotes/${name}/HEAD`, value: `refs/remotes/${name}/${br}`, symbolic: true, force: true });
      return 0;
    }
    default:
      ctx.error(`Unknown subcommand: ${sub}`);
      ctx.err(USAGE);
      return 129;
  }
}
