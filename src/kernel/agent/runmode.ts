// How an agent's model calls are served besides the live backend: recorded
// (`aos run --record`: every call through record.ts's recorder, its lines
// kept here until the agent takes them to write its file), or replayed from
// a record (`aos replay`: replay.ts's backend, or its verifier, which keeps
// the first DIFF). The kernel holds both, so a record is what the kernel sent
// and received, and a replay never reaches a backend or the network.

import { Errno, SysError } from '../../abi/errno.js';
import type { Backend } from './backend.js';
import { parseRecord, recordingBackend } from './record.js';
import { formatVerdict, replayBackend, ReplayVerifier } from './replay.js';
import type { AgentProc } from './table.js';

interface RunMode {
  /** Record lines not yet taken by the agent. */
  lines?: string[];
  recorder?: Backend;
  replay?: Backend;
  verifier?: ReplayVerifier;
}

const modes = new WeakMap<AgentProc, RunMode>();

/** What `begin` was asked for: record the calls, or replay (and perhaps verify) a record. */
export function setRunMode(a: AgentProc, record: unknown, replay: unknown): void {
  if (record === true) modes.set(a, { lines: [] });
  if (replay && typeof replay === 'object' && typeof (replay as { text?: unknown }).text === 'string') {
    const r = replay as { text: string; verify?: unknown };
    let calls;
    try {
      calls = parseRecord(r.text);
    } catch (e) {
      throw new SysError(Errno.EINVAL, e instanceof Error ? e.message : String(e));
    }
    modes.set(a, r.verify === true ? { verifier: new ReplayVerifier(calls) } : { replay: replayBackend(calls) });
  }
}

/** The backend for this agent's call: the replay's, or the live one (made only then), recorded if asked. */
export function runBackend(a: AgentProc, live: () => Backend): Backend {
  const m = modes.get(a);
  if (!m) return live();
  if (m.verifier) return m.verifier.backend;
  if (m.replay) return m.replay;
  m.recorder ??= recordingBackend(live(), (l) => m.lines!.push(l));
  return m.recorder;
}

/** The record lines written since the last take. */
export function takeRecord(a: AgentProc): string[] {
  const m = modes.get(a);
  if (!m?.lines) throw new SysError(Errno.EINVAL, 'agent: this agent does not record (begin with record)');
  return m.lines.splice(0);
}

/** A verifying replay's verdict so far: MATCH or the first DIFF. */
export function verdict(a: AgentProc): { match: boolean; text: string } {
  const v = modes.get(a)?.verifier;
  if (!v) throw new SysError(Errno.EINVAL, 'agent: this agent does not verify a replay');
  const r = v.verdict();
  return { match: r.match, text: formatVerdict(r) };
}
