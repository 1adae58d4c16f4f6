// The /aos tree, generated from the kernel's state: the agent table
// (kernel.agents), the operator's configuration under /etc/aos (read as
// root, shown read-only), the intents and questions waiting for a person.
//
// Owners: the operator's files (agents/, models/, system/) are root's;
// procs/<pid>/ is the agent process's owner's, as /proc/<pid> is, so ctl is
// writable by that owner and root only (mode 0600) and the trace readable by
// them only.

import { parse, stringify } from 'yaml';
import type { AgentStatus } from '../../../abi/agent.js';
import { Errno, SysError } from '../../../abi/errno.js';
import { SIG_HANDLE, SIGCONT, SIGKILL, SIGSTOP, SIGTERM, SIGUSR1 } from '../../../abi/signal.js';
import type { AgentProc } from '../../agent/table.js';
import { answerFor, askHuman, delivered, pending, type Question } from '../../agent/intents.js';
import { sendSignal } from '../../signal.js';
import { readText } from '../../software/manifest.js';
import type { Cred, FileOps } from '../../vfs/types.js';
import { actionOps, channelOps, liveOps } from './action.js';
import { dir, text, type Ctx, type DirNode, type FileNode } from './node.js';
import { checkInboxWriter, startFromInbox } from './inbox.js';

const ROOT: Cred = { uid: 0, gid: 0, groups: [], pid: 0, umask: 0 };
export const AGENTS_D = '/etc/aos/agents.d';
export const MODELS_YAML = '/etc/aos/models.yaml';
const enc = new TextEncoder();

/** A file of the operator's config, read as root; null when absent. */
function config(c: Ctx, path: string): string | null {
  try {
    return readText(c.k.vfs, ROOT, c.k.vfs.root(), path);
  } catch (e) {
    if (e instanceof SysError) return null;
    throw e;
  }
}

const validName = (n: string) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(n);

function agentNames(c: Ctx): string[] {
  try {
    const d = c.k.vfs.resolve(ROOT, c.k.vfs.root(), AGENTS_D);
    return d.fs.readdir(d, ROOT).map((e) => e.name).filter((n) => n.endsWith('.yaml') && validName(n.slice(0, -5))).map((n) => n.slice(0, -5)).sort();
  } catch {
    return [];
  }
}

/** The newest agent process of `name` (for output and status). */
function newest(c: Ctx, name: string): AgentProc | undefined {
  let best: AgentProc | undefined;
  for (const a of c.k.agents.list()) if (a.agent === name && (!best || a.started >= best.started)) best = a;
  return best;
}

/** running, waiting_human, waiting_child, paused or exited: the table's, corrected by the process's state. */
export function statusOf(c: Ctx, a: AgentProc): AgentStatus {
  const p = c.k.procs.get(a.pid);
  if (a.exit || !p || !p.alive) return 'exited';
  if (p.state === 'T') return 'paused';
  return a.status;
}

/** The answer of an agent's last model reply (the run's answer once it ended). */
function lastAnswer(a: AgentProc): string {
  for (let i = a.trace.length - 1; i >= 0; i--) {
    const e = JSON.parse(a.trace[i]) as { type?: string; text?: unknown };
    if (e.type === 'model_reply' && typeof e.text === 'string') return e.text;
  }
  return '';
}

function agentDir(name: string): DirNode {
  return dir({
    config: { type: 'file', mode: 0o444, readOnly: true, read: (c) => config(c, `${AGENTS_D}/${name}.yaml`) ?? '' },
    inbox: {
      type: 'file', mode: 0o222,
      open: (c) => {
        checkInboxWriter(c);
        return actionOps((msg) => startFromInbox(c, name, msg));
      },
    },
    output: text((c) => {
      const a = newest(c, name);
      const out = a ? lastAnswer(a) : '';
      return out && !out.endsWith('\n') ? `${out}\n` : out;
    }),
    status: text((c) => {
      const a = newest(c, name);
      return `${a ? (statusOf(c, a) === 'exited' ? 'idle' : statusOf(c, a)) : 'idle'}\n`;
    }),
  });
}

const num = (n: number) => (Number.isFinite(n) ? String(Math.round(n * 1e9) / 1e9) : 'unlimited');

const CTL: Record<string, number> = { stop: SIGTERM, kill: SIGKILL, pause: SIGSTOP, resume: SIGCONT, checkpoint: SIGUSR1 };

/** ctl: each write is one command, acted on at once (so the writer gets its error). */
function ctlOps(c: Ctx, a: AgentProc): FileOps {
  return {
    read(f, len) {
      const out = enc.encode(`${statusOf(c, a)}\n`).slice(f.pos, f.pos + len);
      f.pos += out.byteLength;
      return out;
    },
    write(_f, data) {
      const cmd = new TextDecoder().decode(data).trim();
      const sig = Object.hasOwn(CTL, cmd) ? CTL[cmd] : undefined;
      if (sig === undefined) throw new SysError(Errno.EINVAL, `ctl: unknown command '${cmd.slice(0, 40)}' (stop, kill, pause, resume, checkpoint)`);
      const p = c.k.procs.get(a.pid);
      if (a.exit || !p || !p.alive) throw new SysError(Errno.ESRCH, `agent ${a.pid} has exited`);
      // A checkpoint is the agent's to write (its conversation): only one that catches SIGUSR1 takes it, SIGUSR1 kills others.
      if (sig === SIGUSR1 && p.dispositions[SIGUSR1] !== SIG_HANDLE) throw new SysError(Errno.ENOTSUP, `agent ${a.pid} takes no checkpoints (it does not catch SIGUSR1)`);
      c.k.agents.record(a.pid, { type: 'ctl', command: cmd, by: c.cred.pid });
      sendSignal(c.k, p, sig);
      return data.byteLength;
    },
    poll: () => 3,
  };
}

/** /aos/procs/<pid>/trace.jsonl: every event of the run, one JSON line each; grows as it runs (tail -f). */
function traceNode(a: AgentProc, owner: { uid: number; gid: number }): FileNode {
  const read = () => (a.trace.length ? `${a.trace.join('\n')}\n` : '');
  return { type: 'file', mode: 0o400, ...owner, read, open: () => liveOps(() => enc.encode(read())) };
}

function procDir(c: Ctx, a: AgentProc): DirNode {
  const p = c.k.procs.get(a.pid);
  // The process's user while it lives; the agent's (the table keeps it) once it ended, so its user still reads how.
  const owner = { uid: p?.uid ?? a.uid, gid: p?.gid ?? 0 };
  const b = a.budget;
  return dir({
    status: text((x) => `${statusOf(x, a)}\n`, 0o444, owner),
    agent: text(() => `${a.agent}\n`, 0o444, owner),
    ppid: text(() => `${a.ppid}\n`, 0o444, owner),
    'trace.jsonl': traceNode(a, owner),
    ctl: { type: 'file', mode: 0o600, ...owner, open: (x) => ctlOps(x, a) },
    budget: dir({
      limit: text(() => `${num(b.limitUsd)}\n`, 0o444, owner),
      spent: text(() => `${num(b.spentUsd)}\n`, 0o444, owner),
      tokens_limit: text(() => `${num(b.tokensLimit)}\n`, 0o444, owner),
      tokens_used: text(() => `${b.tokensUsed}\n`, 0o444, owner),
    }, { mode: 0o555, ...owner }),
    intents: dir({
      pending: text((x) => pending(x.k, a.pid).intents.map((i) => `${JSON.stringify(i)}\n`).join(''), 0o444, owner),
    }, { mode: 0o555, ...owner }),
    exit: text(() => (a.exit ? `${JSON.stringify({ code: a.exit.code, name: String(a.exit.name), reason: a.exit.reason })}\n` : ''), 0o444, owner),
  }, { mode: 0o555, ...owner });
}

function models(c: Ctx): Record<string, unknown> {
  const src = config(c, MODELS_YAML);
  if (!src) return {};
  try {
    const doc = parse(src) as { models?: Record<string, unknown> } | null;
    return doc?.models && typeof doc.models === 'object' ? doc.models : {};
  } catch {
    return {};
  }
}

/** Top-level agents' spend: a child's is already in its parent's. */
function spend(c: Ctx): number {
  let usd = 0;
  for (const a of c.k.agents.list()) if (c.k.agents.chain(a.pid).length === 1) usd += a.budget.spentUsd;
  return usd;
}

/** Core files (kernel/agent writes them for exits >= 96), where the agent table keeps them. */
function cores(c: Ctx): Map<string, unknown> {
  const t = c.k.agents as unknown as { cores?: Map<string, unknown> };
  return t.cores instanceof Map ? t.cores : new Map();
}

/** The human channel: a question written, then read, blocks until answered; a reader with no question sees those waiting. */
function humanOps(c: Ctx): FileOps {
  let q: Question | null = null;
  return channelOps({
    ask: (t) => {
      q = askHuman(c.k, c.k.procs.get(c.cred.pid) ?? c.k.init, t.endsWith('\n') ? t.slice(0, -1) : t);
    },
    content: () => {
      const mine = q ?? answerFor(c.k, c.cred.pid);
      if (mine && mine.answer === null) return null;
      if (mine) {
        delivered(c.k, mine);
        return enc.encode(mine.answer!.endsWith('\n') ? mine.answer! : `${mine.answer!}\n`);
      }
      return enc.encode(pending(c.k, 0).questions.map((x) => `${JSON.stringify(x)}\n`).join(''));
    },
    queue: () => (q ?? answerFor(c.k, c.cred.pid))?.answered ?? null,
  });
}

export const ROOT_DIR: DirNode = dir({
  agents: { type: 'dir', mode: 0o555, names: agentNames, child: (c, name) => (agentNames(c).includes(name) ? agentDir(name) : null) },
  procs: {
    type: 'dir', mode: 0o555,
    names: (c) => c.k.agents.list().map((a) => String(a.pid)),
    child: (c, name) => {
      const a = /^[1-9][0-9]{0,9}$/.test(name) ? c.k.agents.get(Number(name)) : undefined;
      return a ? procDir(c, a) : null;
    },
  },
  models: {
    type: 'dir', mode: 0o555,
    names: (c) => Object.keys(models(c)).filter((n) => !n.includes('/')),
    child: (c, name) => {
      const m = Object.hasOwn(models(c), name) && !name.includes('/') ? models(c)[name] : undefined;
      return m === undefined ? null : dir({ pricing: text((x) => stringify(models(x)[name] ?? {})) });
    },
  },
  system: dir({ spend: text((c) => `${num(spend(c))}\n`) }),
  cores: {
    type: 'dir', mode: 0o555,
    names: (c) => [...cores(c).keys()],
    child: (c, name) => (cores(c).has(name) ? text((x) => `${JSON.stringify(cores(x).get(name), null, 2)}\n`, 0o440) : null),
  },
  etc: { type: 'link', mode: 0o777, target: '/etc/aos' },
  channels: dir({ human: { type: 'file', mode: 0o666, open: humanOps } }),
});
