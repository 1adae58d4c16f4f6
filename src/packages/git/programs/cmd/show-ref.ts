// git show-ref [-q | --quiet] [--verify] [--head] [-d | --dereference]
//              [-s | --hash[=<n>]] [--abbrev[=<n>]] [--tags] [--heads] [--] [<pattern>...]
//
// List refs (those whose name ends in a pattern's components), or check
// exact ref names with --verify.

import type { Ctx } from '../core/ctx.js';
import { Store } from '../core/objects.js';
import { parseOptions } from '../core/opts.js';
import { listRefs, readHead, resolveRef } from '../core/refs.js';

const USAGE = `usage: git show-ref [-q | --quiet] [--verify] [--head] [-d | --dereference]
                    [-s | --hash[=<n>]] [--abbrev[=<n>]] [--tags]
                    [--heads] [--] [<pattern>...]
   or: git show-ref --exclude-existing[=<pattern>]

    --tags                only show tags (can be combined with heads)
    --heads               only show heads (can be combined with tags)
    --verify              stricter reference checking, requires exact ref path
    --head                show the HEAD reference, even if it would be filtered out
    -d, --dereference     dereference tags into object IDs
    -s, --hash[=<n>]      only show SHA1 hash using <n> digits
    --abbrev[=<n>]        use <n> digits to display object names
    -q, --quiet           do not print results to stdout (useful with --verify)
    --exclude-existing[=<pattern>]
                          show refs from stdin that aren't in local repository

`;

/** Does `ref` end with the pattern, on a component boundary? */
const tailMatch = (ref: string, pat: string) => ref === pat || (ref.endsWith(pat) && ref[ref.length - pat.length - 1] === '/');

export async function showRef(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    { '|tags': 'bool', '|heads': 'bool', '|verify': 'bool', 'h|head': 'bool', 'd|dereference': 'bool', 's|hash': 'opt', '|abbrev': 'opt', 'q|quiet': 'bool', '|exclude-existing': 'opt' },
    USAGE,
  );
  ctx.repo();
  const store = new Store(ctx);
  const quiet = o.has('quiet');
  const len = (v: string | undefined) => (v === undefined ? 7 : Math.min(40, Math.max(4, Number(v) || 7)));
  const abbrev = o.given('hash') && o.get('hash') !== undefined ? len(o.get('hash')) : o.given('abbrev') ? len(o.get('abbrev')) : 40;
  const hashOnly = o.given('hash');

  if (o.given('exclude-existing')) {
    const match = o.get('exclude-existing');
    const existing = new Set((await listRefs(ctx)).map((r) => r.name));
    const input = new TextDecoder().decode(ctx.sys.readAll(0)).split('\n');
    if (input[input.length - 1] === '') input.pop();
    for (let line of input) {
      if (line.endsWith('^{}')) line = line.slice(0, -3);
      const ref = line.slice(line.search(/\S+$/));
      if (match !== undefined && !ref.startsWith(match)) continue;
      if (!existing.has(ref)) ctx.print(`${line}\n`);
    }
    return 0;
  }

  const show = async (name: string, oid: string) => {
    if (!(await store.read(oid))) ctx.fatal(`git show-ref: bad ref ${name} (${oid})`);
    if (quiet) return;
    ctx.print(hashOnly ? `${oid.slice(0, abbrev)}\n` : `${oid.slice(0, abbrev)} ${name}\n`);
    if (!o.has('dereference')) return;
    const obj = await store.read(oid);
    if (obj?.type !== 'tag') return;
    let peeled = oid;
    for (let i = 0; i < 32; i++) {
      const t = await store.read(peeled);
      if (t?.type !== 'tag') break;
      peeled = (await store.tag(peeled)).object;
    }
    ctx.print(`${peeled.slice(0, abbrev)} ${name}^{}\n`);
  };

  const patterns = o.operands;
  if (o.has('verify')) {
    if (!patterns.length) ctx.fatal('--verify requires a reference');
    for (const p of patterns) {
      const oid = p.startsWith('refs/') || p === 'HEAD' ? await resolveRef(ctx, p) : null;
      if (oid) await show(p, oid);
      else if (!quiet) ctx.fatal(`'${p}' - not a valid ref`);
      else return 1;
    }
    return 0;
  }
  let found = 0;
  if (o.has('head')) {
    const h = await readHead(ctx);
    if (h.oid) {
      found++;
      await show('HEAD', h.oid);
    }
  }
  const prefixes = o.has('heads') || o.has('tags') ? [...(o.has('heads') ? ['refs/heads/'] : []), ...(o.has('tags') ? ['refs/tags/'] : [])] : ['refs/'];
  for (const prefix of prefixes) {
    for (const r of await listRefs(ctx, prefix)) {
      if (patterns.length && !patterns.some((p) => tailMatch(r.name, p))) continue;
      found++;
      await show(r.name, r.oid);
    }
  }
  return found ? 0 : 1;
}
