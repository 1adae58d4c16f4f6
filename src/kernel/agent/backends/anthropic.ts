// The `anthropic` backend: the messages API (POST <base>/messages) with tool
// use, streamed. The stream is message_start (input usage), then per content
// block a content_block_start (text, or tool_use with id and name), deltas
// (text_delta, or input_json_delta: a piece of the tool input's JSON text)
// and a content_block_stop; message_delta brings the stop reason and output
// usage; message_stop ends it. `ping` keeps the connection open; an `error`
// event mid-stream fails the call.

import type { ChatMessage, Json, ModelReply, ModelRequest, ToolCall } from '../../../abi/agent.js';
import type { Backend, BackendIO } from '../backend.js';
import { BackendError } from '../backend.js';
import { keyHeaders, postWithRetry, providerModel, type ProviderConfig } from './request.js';
import { count, eventJson, readStream, toolArguments } from './stream.js';

export interface AnthropicConfig extends ProviderConfig {
  /** The `anthropic-version` header. */
  version?: string;
}

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';
export const ANTHROPIC_VERSION = '2023-06-01';

type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: { [key: string]: Json } }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };

interface WireMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

function blocks(m: ChatMessage): Block[] {
  switch (m.role) {
    case 'user':
      return [{ type: 'text', text: m.content }];
    case 'assistant':
      // The API refuses empty text blocks.
      return [...(m.content ? [{ type: 'text' as const, text: m.content }] : []), ...(m.toolCalls ?? []).map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.arguments }))];
    case 'tool':
      return [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content, ...(m.isError ? { is_error: true } : {}) }];
  }
}

/** The request body for `req`: tool results are user turns, and turns of one role in a row are merged. */
export function anthropicBody(req: ModelRequest): Record<string, unknown> {
  const messages: WireMessage[] = [];
  for (const m of req.messages) {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const last = messages[messages.length - 1];
    if (last?.role === role) last.content.push(...blocks(m));
    else messages.push({ role, content: blocks(m) });
  }
  const body: Record<string, unknown> = { model: providerModel(req.model, 'anthropic'), max_tokens: req.maxTokens, messages, stream: true };
  if (req.system) body.system = req.system;
  if (req.tools.length) body.tools = req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
  return body;
}

const OVERFLOW = /prompt is too long|context window|context length|too many tokens/i;

export function anthropicBackend(cfg: AnthropicConfig = {}): Backend {
  const url = `${(cfg.baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, '')}/messages`;
  const headers: [string, string][] = [...keyHeaders(cfg, 'x-api-key'), ['anthropic-version', cfg.version ?? ANTHROPIC_VERSION]];
  return {
    name: 'anthropic',
    async complete(req: ModelRequest, io: BackendIO): Promise<ModelReply> {
      const res = await postWithRetry(io, cfg, url, headers, anthropicBody(req), (status, text) => status < 500 && OVERFLOW.test(text));
      return readReply(res.body, io.signal, url);
    },
  };
}

type Open = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; json: string };

async function readReply(body: AsyncIterable<Uint8Array>, signal: AbortSignal, what: string): Promise<ModelReply> {
  const open = new Map<number, Open>();
  const done: Open[] = [];
  let started = false;
  let stop: string | null = null;
  const usage = { inputTokens: 0, outputTokens: 0 };
  await readStream(body, signal, what, (e) => {
    if (e.event === 'ping') return false;
    const d = eventJson(e, what);
    const type = typeof d.type === 'string' ? d.type : e.event;
    switch (type) {
      case 'message_start': {
        started = true;
        const u = ((d.message ?? {}) as { usage?: Record<string, unknown> }).usage ?? {};
        // Cache reads and writes are input too: the budget counts them.
        usage.inputTokens = count(u.input_tokens) + count(u.cache_creation_input_tokens) + count(u.cache_read_input_tokens);
        usage.outputTokens = count(u.output_tokens);
        return false;
      }
      case 'content_block_start': {
        const b = (d.content_block ?? {}) as { type?: unknown; text?: unknown; id?: unknown; name?: unknown };
        const index = blockIndex(d, what);
        if (b.type === 'text') open.set(index, { type: 'text', text: typeof b.text === 'string' ? b.text : '' });
        else if (b.type === 'tool_use') {
          if (typeof b.id !== 'string' || typeof b.name !== 'string') throw new BackendError('upstream', `${what}: a tool_use block without id or name`);
          open.set(index, { type: 'tool_use', id: b.id, name: b.name, json: '' });
        }
        // Other blocks (thinking, …) carry nothing the conversation keeps.
        return false;
      }
      case 'content_block_delta': {
        const b = open.get(blockIndex(d, what));
        const delta = (d.delta ?? {}) as { type?: unknown; text?: unknown; partial_json?: unknown };
        if (b?.type === 'text' && delta.type === 'text_delta' && typeof delta.text === 'string') b.text += delta.text;
        else if (b?.type === 'tool_use' && delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') b.json += delta.partial_json;
        return false;
      }
      case 'content_block_stop': {
        const index = blockIndex(d, what);
        const b = open.get(index);
        if (b) done.push(b);
        open.delete(index);
        return false;
      }
      case 'message_delta': {
        const delta = (d.delta ?? {}) as { stop_reason?: unknown };
        if (typeof delta.stop_reason === 'string') stop = delta.stop_reason;
        const u = (d.usage ?? {}) as Record<string, unknown>;
        // Cumulative: the last one is the reply's.
        if (u.output_tokens !== undefined) usage.outputTokens = count(u.output_tokens);
        return false;
      }
      case 'message_stop':
        return true;
      case 'error': {
        const err = (d.error ?? {}) as { type?: unknown; message?: unknown };
        const message = `${what}: ${String(err.type ?? 'error')}: ${String(err.message ?? '')}`;
        throw new BackendError(err.type === 'rate_limit_error' ? 'rate_limited' : OVERFLOW.test(message) ? 'ctx_overflow' : 'upstream', message);
      }
      default:
        return false;
    }
  });
  if (!started) throw new BackendError('upstream', `${what}: the stream had no message_start`);
  if (open.size) throw new BackendError('upstream', `${what}: a content block was never closed`);
  if (stop === 'model_context_window_exceeded') throw new BackendError('ctx_overflow', `${what}: the conversation filled the model's context window`);
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const b of done) {
    if (b.type === 'text') text += b.text;
    else toolCalls.push({ id: b.id, name: b.name, arguments: toolArguments(b.json, what, b.name) });
  }
  const stopReason = stop === 'max_tokens' ? 'max_tokens' : toolCalls.length ? 'tool_use' : 'end';
  return { text, toolCalls, usage, stopReason };
}

function blockIndex(d: Record<string, unknown>, what: string): number {
  if (typeof d.index !== 'number') throw new BackendError('upstream', `${what}: a content block event without an index`);
  return d.index;
}
