// coreutils: a multicall program. The applet is basename(argv[0]) — the name
// the command was invoked by — never the blob's own name.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { cat } from './cat.js';
import { echo } from './echo.js';
import { basename } from './basename.js';
import { dirname } from './dirname.js';
import { seq } from './seq.js';
import { sleep } from './sleep.js';
import { yes } from './yes.js';
import { head } from './head.js';
import { tail } from './tail.js';
import { wc } from './wc.js';
import { tee } from './tee.js';
import { mkdir } from './mkdir.js';
import { rmdir } from './rmdir.js';
import { rm } from './rm.js';
import { touch } from './touch.js';
import { cp } from './cp.js';
import { mv } from './mv.js';
import { ln } from './ln.js';
import { readlink } from './readlink.js';
import { realpath } from './realpath.js';
import { stat } from './stat.js';
import { chmod } from './chmod.js';
import { ls } from './ls.js';
import { hostname, id, nproc, uname, whoami } from './sysinfo.js';
import { env } from './env.js';
import { printenv } from './printenv.js';
import { sort } from './sort.js';
import { uniq } from './uniq.js';
import { cut } from './cut.js';
import { tr } from './tr.js';
import { tac } from './tac.js';
import { rev } from './rev.js';
import { nl } from './nl.js';
import { paste } from './paste.js';
import { comm } from './comm.js';
import { base64 } from './base64.js';
import { mktemp } from './mktemp.js';
import { od } from './od.js';
import { fold } from './fold.js';
import { expand } from './expand.js';
import { date } from './date.js';
import { expr } from './expr.js';
import { timeout } from './timeout.js';
import { nohup } from './nohup.js';
import { du } from './du.js';
import { df } from './df.js';
import { truncate } from './truncate.js';
import { dd } from './dd.js';
import { which } from './which.js';
import { tty } from './tty.js';
import { pwd } from './pwd.js';
import { chown } from './chown.js';
import { install } from './install.js';
import { join } from './join.js';
import { fmt } from './fmt.js';
import { unexpand } from './unexpand.js';
import { split } from './split.js';
import { shuf } from './shuf.js';
import { groups } from './groups.js';
import { stty } from './stty.js';
import { sync } from './sync.js';
import { mkfifo } from './mkfifo.js';
import { printf } from './printf.js';
import { bracket, test } from './test.js';
import { md5sum, sha1sum, sha256sum, sha512sum } from './sums.js';
import { cksum } from './cksum.js';
import { csplit } from './csplit.js';
import { factor } from './factor.js';
import { numfmt } from './numfmt.js';
import { pr } from './pr.js';
import { tsort } from './tsort.js';

type Applet = (os: AgentosApi, args: string[]) => number;

const APPLETS: Record<string, Applet> = {
  cat,
  echo,
  basename,
  dirname,
  seq,
  sleep,
  yes,
  head,
  tail,
  wc,
  tee,
  mkdir,
  rmdir,
  rm,
  touch,
  cp,
  mv,
  ln,
  readlink,
  realpath,
  stat,
  chmod,
  ls,
  uname,
  hostname,
  whoami,
  id,
  nproc,
  env,
  printenv,
  sort,
  uniq,
  cut,
  tr,
  tac,
  rev,
  nl,
  paste,
  comm,
  base64,
  mktemp,
  od,
  fold,
  expand,
  md5sum,
  sha1sum,
  sha256sum,
  sha512sum,
  cksum,
  csplit,
  factor,
  numfmt,
  pr,
  tsort,
  date,
  expr,
  timeout,
  nohup,
  du,
  df,
  truncate,
  dd,
  which,
  tty,
  pwd,
  chown,
  install,
  join,
  fmt,
  unexpand,
  split,
  shuf,
  groups,
  stty,
  sync,
  mkfifo,
  printf,
  test,
  '[': bracket,
  true: () => 0,
  false: () => 1,
};

export default function main(os: AgentosApi): void {
  const invoked = os.argv[0] ?? '';
  const name = invoked.slice(invoked.lastIndexOf('/') + 1);
  const applet = APPLETS[name];
  if (!applet) {
    os.eprint(`coreutils: '${name}': applet not found; run it through one of its links: ${Object.keys(APPLETS).join(', ')}\n`);
    os.exit(127);
  }
  os.exit(applet(os, os.argv.slice(1)));
}
