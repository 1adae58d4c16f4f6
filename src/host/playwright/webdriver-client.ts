// A W3C WebDriver classic client, only what an EnginePage needs: new session,
// navigate, execute async script, delete session. Plain HTTP+JSON; every
// command has a time limit, so a driver that stops answering gives an error.

export class WebDriverError extends Error {}

export class WebDriverSession {
  private constructor(
    private readonly base: string,
    readonly id: string,
    readonly capabilities: Record<string, unknown>,
  ) {}

  static async create(base: string, alwaysMatch: Record<string, unknown>, timeoutMs = 60_000): Promise<WebDriverSession> {
    const v = (await command(base, 'POST', '/session', { capabilities: { alwaysMatch } }, timeoutMs)) as { sessionId: string; capabilities: Record<string, unknown> };
    return new WebDriverSession(base, v.sessionId, v.capabilities);
  }

  send(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, timeoutMs = 60_000): Promise<unknown> {
    return command(this.base, method, `/session/${this.id}${path}`, body, timeoutMs);
  }

  /** Runs `script` as an async script: its last argument is the callback that ends it. */
  executeAsync(script: string, args: unknown[], timeoutMs?: number): Promise<unknown> {
    return this.send('POST', '/execute/async', { script, args }, timeoutMs);
  }

  delete(): Promise<unknown> {
    return this.send('DELETE', '', undefined, 10_000);
  }
}

async function command(base: string, method: string, path: string, body: unknown, timeoutMs: number): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(base + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
      // 0: no limit (a call that may legitimately run long, e.g. a long exec).
      signal: timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined,
    });
  } catch (e) {
    const err = e as Error;
    throw new WebDriverError(`WebDriver ${method} ${path}: ${err.name === 'TimeoutError' ? `no answer within ${Math.round(timeoutMs / 1000)} s` : err.message}`);
  }
  const json = (await res.json().catch(() => ({}))) as { value?: { error?: string; message?: string } & Record<string, unknown> };
  const value = json.value;
  if (!res.ok || (value && typeof value === 'object' && typeof value.error === 'string')) {
    throw new WebDriverError(`WebDriver ${method} ${path}: ${value?.error ?? res.status}: ${value?.message ?? ''}`.trim());
  }
  return value;
}
