// coreutils: a multicall program. The applet is basename(argv[0]) — the name
// the command was invoked by — never the blob's own name.
//
// Applets are loaded by dynamic import: the bundler (scripts/build-packages.mjs)
// keeps each module's body in a function run on first import, so a run
// evaluates only its own applet's modules (option tables, CRC and digest
// tables, primes), not the other 80 (decision 0054, "coreutils start-up").

import type { AgentosApi } from '../../../runtimes/js/api.js';

type Applet = (os: AgentosApi, args: string[]) => number;

const APPLETS: Record<string, () => Promise<Applet>> = {
  cat: async () => (await import('./cat.js')).cat,
  echo: async () => (await import('./echo.js')).echo,
  basename: async () => (await import('./basename.js')).basename,
  dirname: async () => (await import('./dirname.js')).dirname,
  seq: async () => (await import('./seq.js')).seq,
  sleep: async () => (await import('./sleep.js')).sleep,
  yes: async () => (await import('./yes.js')).yes,
  head: async () => (await import('./head.js')).head,
  tail: async () => (await import('./tail.js')).tail,
  wc: async () => (await import('./wc.js')).wc,
  tee: async () => (await import('./tee.js')).tee,
  mkdir: async () => (await import('./mkdir.js')).mkdir,
  rmdir: async () => (await import('./rmdir.js')).rmdir,
  rm: async () => (await import('./rm.js')).rm,
  touch: async () => (await import('./touch.js')).touch,
  cp: async () => (await import('./cp.js')).cp,
  mv: async () => (await import('./mv.js')).mv,
  ln: async () => (await import('./ln.js')).ln,
  readlink: async () => (await import('./readlink.js')).readlink,
  realpath: async () => (await import('./realpath.js')).realpath,
  stat: async () => (await import('./stat.js')).stat,
  chmod: async () => (await import('./chmod.js')).chmod,
  ls: async () => (await import('./ls.js')).ls,
  uname: async () => (await import('./sysinfo.js')).uname,
  hostname: async () => (await import('./sysinfo.js')).hostname,
  whoami: async () => (await import('./sysinfo.js')).whoami,
  id: async () => (await import('./sysinfo.js')).id,
  nproc: async () => (await import('./sysinfo.js')).nproc,
  env: async () => (await import('./env.js')).env,
  printenv: async () => (await import('./printenv.js')).printenv,
  sort: async () => (await import('./sort.js')).sort,
  uniq: async () => (await import('./uniq.js')).uniq,
  cut: async () => (await import('./cut.js')).cut,
  tr: async () => (await import('./tr.js')).tr,
  tac: async () => (await import('./tac.js')).tac,
  rev: async () => (await import('./rev.js')).rev,
  nl: async () => (await import('./nl.js')).nl,
  paste: async () => (await import('./paste.js')).paste,
  comm: async () => (await import('./comm.js')).comm,
  base64: async () => (await import('./base64.js')).base64,
  mktemp: async () => (await import('./mktemp.js')).mktemp,
  od: async () => (await import('./od.js')).od,
  fold: async () => (await import('./fold.js')).fold,
  expand: async () => (await import('./expand.js')).expand,
  md5sum: async () => (await import('./sums.js')).md5sum,
  sha1sum: async () => (await import('./sums.js')).sha1sum,
  sha256sum: async () => (await import('./sums.js')).sha256sum,
  sha512sum: async () => (await import('./sums.js')).sha512sum,
  cksum: async () => (await import('./cksum.js')).cksum,
  csplit: async () => (await import('./csplit.js')).csplit,
  factor: async () => (await import('./factor.js')).factor,
  numfmt: async () => (await import('./numfmt.js')).numfmt,
  pr: async () => (await import('./pr.js')).pr,
  tsort: async () => (await import('./tsort.js')).tsort,
  date: async () => (await import('./date.js')).date,
  expr: async () => (await import('./expr.js')).expr,
  timeout: async () => (await import('./timeout.js')).timeout,
  nohup: async () => (await import('./nohup.js')).nohup,
  du: async () => (await import('./du.js')).du,
  df: async () => (await import('./df.js')).df,
  truncate: async () => (await import('./truncate.js')).truncate,
  dd: async () => (await import('./dd.js')).dd,
  which: async () => (await import('./which.js')).which,
  tty: async () => (await import('./tty.js')).tty,
  pwd: async () => (await import('./pwd.js')).pwd,
  chown: async () => (await import('./chown.js')).chown,
  install: async () => (await import('./install.js')).install,
  join: async () => (await import('./join.js')).join,
  fmt: async () => (await import('./fmt.js')).fmt,
  unexpand: async () => (await import('./unexpand.js')).unexpand,
  split: async () => (await import('./split.js')).split,
  shuf: async () => (await import('./shuf.js')).shuf,
  groups: async () => (await import('./groups.js')).groups,
  stty: async () => (await import('./stty.js')).stty,
  sync: async () => (await import('./sync.js')).sync,
  mkfifo: async () => (await import('./mkfifo.js')).mkfifo,
  printf: async () => (await import('./printf.js')).printf,
  test: async () => (await import('./test.js')).test,
  '[': async () => (await import('./test.js')).bracket,
  true: async () => () => 0,
  false: async () => () => 1,
};

/**
 * The js runtime may run the next process of this bundle in the same worker
 * from the main it kept, without evaluating the modules again (decision
 * 0088): no module of the bundle may keep anything from one run for the next
 * — per-process state lives in the run (the Cmd, its Writer) or is keyed by
 * the process's Sys; what stays is constant tables and pure caches.
 * test/runtimes/js/reentrant.test.ts checks the modules for new state.
 */
export const reentrant = true;

export default async function main(os: AgentosApi): Promise<void> {
  const invoked = os.argv[0] ?? '';
  const name = invoked.slice(invoked.lastIndexOf('/') + 1);
  const load = Object.hasOwn(APPLETS, name) ? APPLETS[name] : undefined;
  if (!load) {
    os.eprint(`coreutils: '${name}': applet not found; run it through one of its links: ${Object.keys(APPLETS).join(', ')}\n`);
    os.exit(127);
  }
  const applet = await load();
  os.exit(applet(os, os.argv.slice(1)));
}
