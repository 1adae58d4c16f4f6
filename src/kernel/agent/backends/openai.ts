// The `openai` backend: chat completions (POST <base>/chat/completions) with
// function tools, streamed. Text arrives as `delta.content` pieces; a tool
// call arrives in pieces keyed by `index` (the first carries id and name, the
// rest pieces of the arguments' JSON text); with `stream_options.include_usage`
// a last chunk carries the usage; `data: [DONE]` ends the stream. Any server
// speaking this API (a local one, a proxy) works through `baseUrl`.

import type { ChatMessage, ModelReply, ModelRequest, ToolCall } from '../../../abi/agent.js';
import type { Backend, BackendIO } from '../backend.js';
import { BackendError } from '../backend.js';
import { keyHeaders, postWithRetry, providerModel, type ProviderConfig } from './request.js';
import { count, eventJson, readStream, toolArguments } from './stream.js';

export interface OpenAIConfig extends ProviderConfig {
  /** `max_completion_tokens` (the current API) or `max_tokens` (older compatible servers). */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
}

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

type WireMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[] }
  | { role: 'tool'; tool_call_id: string; content: string };

function wireMessage(m: ChatMessage): WireMessage {
  switch (m.role) {
    case 'user':
      return { role: 'user', content: m.content };
    case 'assistant':
      if (!m.toolCalls?.length) return { role: 'assistant', content: m.content };
      return {
        role: 'assistant',
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } })),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  }
}

/** The request body for `req` (exported for the tests and the record's readers). */
export function openaiBody(req: ModelRequest, cfg: OpenAIConfig = {}): Record<string, unknown> {
  const messages: WireMessage[] = [];
  if (req.system) messages.push({ role: 'system', content: req.system });
  for (const m of req.messages) messages.push(wireMessage(m));
  const body: Record<string, unknown> = {
    model: providerModel(req.model, 'openai'),
    messages,
    [cfg.maxTokensField ?? 'max_completion_tokens']: req.maxTokens,
    stream: true,
    stream_options: { include_usage: true },
  };
  // An empty list is an error to the API: no tools is no field.
  if (req.tools.length) body.tools = req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
  return body;
}

const OVERFLOW = /context[_ ]length|maximum context|context window|too many tokens|prompt is too long/i;

export function openaiBackend(cfg: OpenAIConfig = {}): Backend {
  const url = `${(cfg.baseUrl ?? OPENAI_BASE_URL).replace(/\/+$/, '')}/chat/completions`;
  const headers = keyHeaders(cfg, 'authorization');
  return {
    name: 'openai',
    async complete(req: ModelRequest, io: BackendIO): Promise<ModelReply> {
      const res = await postWithRetry(io, cfg, url, headers, openaiBody(req, cfg), (status, text) => status < 500 && OVERFLOW.test(text));
      return readReply(res.body, io.signal, url);
    },
  };
}

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

async function readReply(body: AsyncIterable<Uint8Array>, signal: AbortSignal, what: string): Promise<ModelReply> {
  let text = '';
  const calls = new Map<number, PendingCall>();
  let finish: string | null = null;
  let usage = { inputTokens: 0, outputTokens: 0 };
  await readStream(body, signal, what, (e) => {
    if (e.data === '[DONE]') return true;
    const chunk = eventJson(e, what);
    if (chunk.error) {
      const err = chunk.error as { message?: unknown; code?: unknown };
      const message = `${what}: ${typeof err.message === 'string' ? err.message : JSON.stringify(err)}`;
      throw new BackendError(OVERFLOW.test(`${String(err.code)} ${String(err.message)}`) ? 'ctx_overflow' : 'upstream', message);
    }
    const u = chunk.usage as { prompt_tokens?: unknown; completion_tokens?: unknown } | null | undefined;
    if (u) usage = { inputTokens: count(u.prompt_tokens), outputTokens: count(u.completion_tokens) };
    const choices = Array.isArray(chunk.choices) ? (chunk.choices as Record<string, unknown>[]) : [];
    for (const choice of choices) {
      if ((choice.index ?? 0) !== 0) continue; // one completion asked for
      const delta = (choice.delta ?? {}) as { content?: unknown; tool_calls?: unknown };
      if (typeof delta.content === 'string') text += delta.content;
      if (Array.isArray(delta.tool_calls)) {
        for (const piece of delta.tool_calls as { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } }[]) {
          const index = typeof piece.index === 'number' ? piece.index : calls.size;
          let call = calls.get(index);
          if (!call) calls.set(index, (call = { id: '', name: '', args: '' }));
          if (typeof piece.id === 'string' && piece.id) call.id = piece.id;
          if (typeof piece.function?.name === 'string') call.name += piece.function.name;
          if (typeof piece.function?.arguments === 'string') call.args += piece.function.arguments;
        }
      }
      if (typeof choice.finish_reason === 'string') finish = choice.finish_reason;
    }
    return false;
  });
  if (finish === null) throw new BackendError('upstream', `${what}: the stream ended without a finish reason`);
  const toolCalls: ToolCall[] = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, c]) => {
      if (!c.name) throw new BackendError('upstream', `${what}: tool call ${index} has no name`);
      return { id: c.id || `call_${index}`, name: c.name, arguments: toolArguments(c.args, what, c.name) };
    });
  if (finish === 'content_filter') throw new BackendError('upstream', `${what}: the reply was withheld by the provider's content filter`);
  const stopReason = finish === 'length' ? 'max_tokens' : toolCalls.length ? 'tool_use' : 'end';
  return { text, toolCalls, usage, stopReason };
}
