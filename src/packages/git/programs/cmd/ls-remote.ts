// git ls-remote [--heads] [--tags] [--refs] [-q] [--exit-code] [--symref]
//               [--get-url] [<repository> [<patterns>...]]
//
// The refs a repository advertises: HEAD, then every ref with annotated
// tags peeled (`^{}`), from a repository on this filesystem or, through
// the network seam, over http(s).

import * as git from 'isomorphic-git';
import type { Ctx } from '../core/ctx.js';
import { findGitdir } from '../core/localrepo.js';
import { parseOptions } from '../core/opts.js';
import { normalize } from '../core/path.js';
import { corsProxy, httpClient, isRemoteUrl } from '../core/transport.js';
import { wildmatch } from '../core/wildmatch.js';

const USAGE = `usage: git ls-remote [--heads] [--tags] [--refs] [--upload-pack=<exec>]
                     [-q | --quiet] [--exit-code] [--get-url]
                     [--symref] [<repository> [<refs>...]]

    -q, --quiet           do not print remote URL
    --upload-pack <exec>  path of git-upload-pack on the remote host
    -t, --tags            limit to tags
    -h, --heads           limit to heads
    --refs                do not show peeled tags
    --get-url             take url.<base>.insteadOf into account
    --sort <key>          field name to sort on
    --exit-code           exit with exit code 2 if no matching refs are found
    --symref              show underlying ref in addition to the object pointed by it
    -o, --server-option <server-specific>
                          option to transmit

`;

interface Advertised {
  name: string;
  oid: string;
  /** For HEAD with --symref: the ref it points at. */
  target?: string;
}

/** A local repository's advertisement: HEAD, the refs in order, peeled tags after their tag. */
async function localRefs(ctx: Ctx, gitdir: string): Promise<Advertised[]> {
  const args = { fs: ctx.fs, gitdir, cache: {} };
  const out: Advertised[] = [];
  const headText = (ctx.readText(`${gitdir}/HEAD`) ?? '').trim();
  try {
    const oid = await git.resolveRef({ ...args, ref: 'HEAD' });
    out.push({ name: 'HEAD', oid, target: headText.startsWith('ref: ') ? headText.slice(5) : undefined });
  } catch {
    // unborn HEAD: not advertised
  }
  const names = (await git.listRefs({ ...args, filepath: 'refs' })).map((n) => `refs/${n}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) {
    let oid: string;
    try {
      oid = await git.resolveRef({ ...args, ref: name });
    } catch {
      continue;
    }
    out.push({ name, oid });
    let peeled = oid;
    for (let i = 0; i < 32; i++) {
      const o = await git.readObject({ ...args, oid: peeled, format: 'parsed' }).catch(() => null);
      if (!o || o.type !== 'tag') break;
      peeled = (o.object as { object: string }).object;
    }
    if (peeled !== oid) out.push({ name: `${name}^{}`, oid: peeled });
  }
  return out;
}

async function remoteRefs(ctx: Ctx, url: string): Promise<Advertised[]> {
  const http = httpClient(ctx, url);
  const refs = await git.listServerRefs({ http, url, corsProxy: corsProxy(ctx), symrefs: true, peelTags: true, protocolVersion: 1 });
  const out: Advertised[] = [];
  for (const r of refs) {
    if (!r.oid) continue;
    out.push({ name: r.ref, oid: r.oid, target: r.target });
    if (r.peeled) out.push({ name: `${r.ref}^{}`, oid: r.peeled });
  }
  return out;
}

export async function lsRemote(ctx: Ctx, args: string[]): Promise<number> {
  const o = parseOptions(
    args,
    { 'q|quiet': 'bool', '|upload-pack': 'str', 't|tags': 'bool', 'h|heads': 'bool', '|refs': 'bool', '|get-url': 'bool', '|sort': 'str', '|exit-code': 'bool', '|symref': 'bool', 'o|server-option': 'str' },
    USAGE,
  );
  const patterns = o.operands.slice(1);
  let repoArg: string | undefined = o.operands[0];
  let explicit = true;
  if (repoArg === undefined) {
    explicit = false;
    const remote = ctx.findRepo() ? (ctx.config(`branch.${(ctx.readText(`${ctx.repo().gitdir}/HEAD`) ?? '').trim().replace(/^ref: refs\/heads\//, '')}.remote`) ?? 'origin') : null;
    repoArg = remote !== null ? (ctx.config(`remote.${remote}.url`) ?? '') : '';
    if (!repoArg) ctx.fatal('No remote configured to list refs from.');
  } else if (ctx.findRepo() && ctx.config(`remote.${repoArg}.url`) !== undefined) repoArg = ctx.config(`remote.${repoArg}.url`)!;
  if (o.has('get-url')) {
    ctx.print(`${repoArg}\n`);
    return 0;
  }
  let refs: Advertised[];
  if (isRemoteUrl(repoArg)) refs = await remoteRefs(ctx, repoArg);
  else {
    const gitdir = findGitdir(ctx, normalize(ctx.abs(repoArg.replace(/^file:\/\//, ''))));
    if (!gitdir) {
      ctx.err(`fatal: '${repoArg}' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n`);
      return 128;
    }
    refs = await localRefs(ctx, gitdir);
  }
  if (!explicit && !o.has('quiet')) ctx.err(`From ${repoArg}\n`);
  const kinds = [...(o.has('heads') ? ['refs/heads/'] : []), ...(o.has('tags') ? ['refs/tags/'] : [])];
  let shown = 0;
  for (const r of refs) {
    if (kinds.length && !kinds.some((k) => r.name.startsWith(k))) continue;
    if (o.has('refs') && (r.name === 'HEAD' || r.name.endsWith('^{}'))) continue;
    // a pattern matches the tail of the name at a component boundary (`*/<pattern>` against `/<name>`)
    if (patterns.length && !patterns.some((p) => wildmatch(`*/${p}`, `/${r.name}`, false))) continue;
    if (o.has('symref') && r.target) ctx.print(`ref: ${r.target}\t${r.name}\n`);
    ctx.print(`${r.oid}\t${r.name}\n`);
    shown++;
  }
  return o.has('exit-code') && shown === 0 ? 2 : 0;
}
