// The http syscall's request and response (kernel/net/sys.ts).

export interface HttpRequest {
  method: string;
  url: string;
  /** Values are byte strings, one char per byte (as fetch's Headers): text is UTF-8 encoded first (abi/bytes.ts byteString). A char past 0xFF is EINVAL. */
  headers: [string, string][];
  /** The body as bytes ... */
  body?: Uint8Array;
  /** ... or streamed from this fd (read to EOF by the kernel). */
  bodyFd?: number;
  /** Whole transfer, headers and body; 0 = none. */
  timeoutMs?: number;
  /** Resolving and connecting. */
  connectTimeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  /** '1.1', '1.0', '2.0' */
  httpVersion: string;
  /** Values as the server sent them, one char per byte (latin1). */
  headers: [string, string][];
  /** The final URL (another only where the host followed redirects itself). */
  url: string;
  /** `ip:port` connected to, or '' when the host cannot tell. */
  remote: string;
  /** The host already removed any Content-Encoding. */
  decoded: boolean;
  /** The body: read to EOF (close-on-exec); a failure mid-body is read()'s errno. */
  fd: number;
}
