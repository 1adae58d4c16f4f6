// The `mock` backend: a deterministic script, one JSON object per line, one
// line per model turn, in order:
//   {"text": "…", "tool_calls": [{"name": "bash", "arguments": {…}}],
//    "usage": {"input_tokens": N, "output_tokens": N}, "match": "regex"}
// (all but `text` optional). A line with `match` answers only when the last
// message matches it. The model string is `mock:<script path>`; the script is
// read as the calling process. Which line answers is worked out from the
// conversation itself (one line per assistant turn so far), so the backend
// keeps no state and a conversation resumed from a checkpoint goes on where
// it stopped.

import type { ChatMessage, Json, ModelReply, ModelRequest, ToolCall } from '../../abi/agent.js';
import { type Backend, BackendError, type BackendIO } from './backend.js';

interface Line {
  text: string;
  toolCalls: { name: string; arguments: { [key: string]: Json } }[];
  usage: { input: number; output: number } | null;
  match: RegExp | null;
}

const utf8 = new TextDecoder();

function parseLine(raw: string, n: number): Line {
  let o: unknown;
  try {
    o = JSON.parse(raw);
  } catch {
    throw new BackendError('invalid', `mock script line ${n}: not JSON`);
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) throw new BackendError('invalid', `mock script line ${n}: not an object`);
  const l = o as { text?: unknown; tool_calls?: unknown; usage?: { input_tokens?: unknown; output_tokens?: unknown }; match?: unknown };
  const calls = Array.isArray(l.tool_calls) ? l.tool_calls : [];
  const toolCalls = calls.map((c: unknown, i) => {
    const call = c as { name?: unknown; arguments?: unknown };
    if (!call || typeof call.name !== 'string') throw new BackendError('invalid', `mock script line ${n}: tool call ${i} has no name`);
    const args = call.arguments && typeof call.arguments === 'object' && !Array.isArray(call.arguments) ? (call.arguments as { [key: string]: Json }) : {};
    return { name: call.name, arguments: args };
  });
  const tokens = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);
  let match: RegExp | null = null;
  if (typeof l.match === 'string') {
    if (risky(l.match)) throw new BackendError('invalid', `mock script line ${n}: match is too complex (a repeated group that repeats or alternates inside, or a back-reference)`);
    try {
      match = new RegExp(l.match);
    } catch {
      throw new BackendError('invalid', `mock script line ${n}: bad match regex`);
    }
  }
  return {
    text: typeof l.text === 'string' ? l.text : '',
    toolCalls,
    usage: l.usage ? { input: tokens(l.usage.input_tokens), output: tokens(l.usage.output_tokens) } : null,
    match,
  };
}

/** How much of a message `match` is tested against: the regex runs in the kernel. */
const MATCH_TEXT_MAX = 2048;

function contentOf(m: ChatMessage | undefined): string {
  return m ? m.content.slice(0, MATCH_TEXT_MAX) : '';
}

/**
 * Whether a `match` regex could backtrack exponentially (it runs in the
 * kernel, on text the guest chose): a back-reference, or a repeated group
 * with a repetition or an alternation inside, at any depth.
 */
function risky(src: string): boolean {
  if (src.length > 512 || /\\[1-9]|\\k</.test(src)) return true;
  let s = src.replace(/\\./g, 'x').replace(/\[[^\]]*\]/g, 'x').replace(/\(\?(?:[:=!]|<[=!]|<\w+>)/g, '(');
  for (;;) {
    let found = false;
    const next = s.replace(/\(([^()]*)\)(\s*[*+?{])?/g, (_, body: string, q: string | undefined) => {
      const inner = /[*+?{|]|Q/.test(body);
      if (inner && q) found = true;
      return inner ? 'Q' : `x${q ?? ''}`;
    });
    if (found) return true;
    if (next === s) return false;
    s = next;
  }
}

/** The script line that answers turn `turn`, given the message each turn answered. */
function pick(lines: Line[], lastMessages: string[]): { line: Line; index: number } | null {
  const used = new Set<number>();
  let chosen: { line: Line; index: number } | null = null;
  for (const last of lastMessages) {
    chosen = null;
    for (let i = 0; i < lines.length; i++) {
      if (used.has(i)) continue;
      const m = lines[i].match;
      if (m && !m.test(last)) continue;
      used.add(i);
      chosen = { line: lines[i], index: i };
      break;
    }
    if (!chosen) return null;
  }
  return chosen;
}

/** A rough token count for a reply without `usage`: a token per 4 bytes, as providers' rule of thumb. */
const roughTokens = (s: string) => Math.ceil(new TextEncoder().encode(s).byteLength / 4);

export const mockBackend: Backend = {
  name: 'mock',
  complete(req: ModelRequest, io: BackendIO): Promise<ModelReply> {
    const colon = req.model.indexOf(':');
    const path = colon < 0 ? '' : req.model.slice(colon + 1);
    if (!path) return Promise.reject(new BackendError('invalid', 'mock: no script (give --mock FILE or AOS_MOCK)'));
    let text: string;
    try {
      text = utf8.decode(io.readFile(path));
    } catch (e) {
      return Promise.reject(new BackendError('invalid', `mock: cannot read ${path}: ${(e as Error).message}`));
    }
    const lines = text.split('\n').map((l, i) => [l.trim(), i + 1] as const).filter(([l]) => l !== '' && !l.startsWith('//'));
    let parsed: Line[];
    try {
      parsed = lines.map(([l, n]) => parseLine(l, n));
    } catch (e) {
      return Promise.reject(e);
    }
    // The message each turn so far answered, then the one this turn answers.
    const lasts: string[] = [];
    req.messages.forEach((m, i) => {
      if (m.role === 'assistant') lasts.push(contentOf(req.messages[i - 1]));
    });
    lasts.push(contentOf(req.messages[req.messages.length - 1]));
    const chosen = pick(parsed, lasts);
    if (!chosen) return Promise.reject(new BackendError('upstream', `mock: the script has no line for turn ${lasts.length}`));
    const { line } = chosen;
    const turn = lasts.length;
    const toolCalls: ToolCall[] = line.toolCalls.map((c, i) => ({ id: `call_${turn}_${i}`, name: c.name, arguments: c.arguments }));
    const outputTokens = Math.min(line.usage?.output ?? roughTokens(line.text + JSON.stringify(line.toolCalls)), req.maxTokens);
    return Promise.resolve({
      text: line.text,
      toolCalls,
      usage: { inputTokens: line.usage?.input ?? roughTokens(JSON.stringify(req.messages)), outputTokens },
      stopReason: toolCalls.length ? 'tool_use' : 'end',
    });
  },
};
