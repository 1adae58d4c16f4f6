// The base image in the browser: fetched gzipped once (the manifest names the
// .img.gz; a site serves only that and the manifest), decompressed here as it
// arrives, whatever the server, and kept whole in the Cache API under the
// image's own URL, so every later boot reads it from there with no network and
// no decompression (decision 0057).

import type { BootProgress } from './index.js';

const IMAGE_CACHE = 'agentos-image';

interface ImageManifest {
  file: string;
  bytes: number;
  sha256: string;
  /** The image gzipped: what is fetched. */
  gz: { file: string; bytes: number };
}

/**
 * The manifest, fetched past the HTTP cache once per page: the image must match
 * the kernel code this page loaded, and a revalidation per boot costs a round trip.
 */
let manifest: Promise<ImageManifest> | null = null;

export function loadManifest(base: URL): Promise<ImageManifest> {
  const url = new URL('manifest.json', base).href;
  manifest ??= fetch(url, { cache: 'no-cache' }).then((res) => {
    if (!res.ok) throw new Error(`agentOS: no base image manifest (${url}: HTTP ${res.status})`);
    return res.json() as Promise<ImageManifest>;
  });
  manifest.catch(() => (manifest = null)); // a failed fetch is retried by the next boot
  return manifest;
}

/** The current base image: its name is its hash, so once in the Cache API it is never fetched again. */
export async function loadBaseImage(base: URL, progress: (p: BootProgress) => void): Promise<Uint8Array> {
  const { file, bytes, gz } = await loadManifest(base);
  const url = new URL(file, base).href;
  const cache = await caches.open(IMAGE_CACHE).catch(() => null);
  const hit = await cache?.match(url);
  if (hit) {
    const buf = await hit.arrayBuffer();
    if (buf.byteLength === bytes) {
      progress({ stage: 'image', loaded: bytes, total: bytes, cached: true });
      return new Uint8Array(buf);
    }
    await cache!.delete(url); // a damaged copy: fetch it again
  }
  const from = new URL(gz.file, base).href;
  const r = await fetch(from);
  if (!r.ok) throw new Error(`agentOS: fetch ${from}: HTTP ${r.status}`);
  if (!r.body) throw new Error(`agentOS: fetch ${from}: no body`);
  let loaded = 0;
  const counted = r.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, out) {
      loaded += chunk.byteLength;
      progress({ stage: 'image', loaded, total: gz.bytes, cached: false });
      out.enqueue(chunk);
    },
  }));
  const [toCache, toRead] = (await gunzipped(counted)).tee();
  const stored = cache?.put(url, new Response(toCache)).then(() => prune(cache, url)).catch(() => {}); // a full cache only costs refetches
  const image = await readExactly(toRead, bytes, from).catch(async (e: unknown) => {
    await stored;
    await cache?.delete(url).catch(() => {}); // never keep what did not check out
    throw e;
  });
  await stored;
  return image;
}

/**
 * The bytes a gzip body decodes to. A server that labels the .gz with a
 * Content-Encoding has the browser decode it already: then the body is the
 * image itself, known by its first bytes not being gzip's magic.
 */
async function gunzipped(body: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>> {
  const [peek, all] = body.tee();
  const reader = peek.getReader();
  const { value } = await reader.read();
  void reader.cancel();
  const isGzip = value !== undefined && value[0] === 0x1f && value[1] === 0x8b;
  return isGzip ? (all as ReadableStream<BufferSource>).pipeThrough(new DecompressionStream('gzip')) : all;
}

/** A stream read into one buffer of exactly `bytes` (the manifest's size). */
async function readExactly(stream: ReadableStream<Uint8Array>, bytes: number, url: string): Promise<Uint8Array> {
  const out = new Uint8Array(bytes);
  let at = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at + value.byteLength > bytes) {
      void reader.cancel();
      throw new Error(`agentOS: ${url} holds more than the ${bytes} bytes the manifest says`);
    }
    out.set(value, at);
    at += value.byteLength;
  }
  if (at !== bytes) throw new Error(`agentOS: ${url} is ${at} bytes, manifest says ${bytes}`);
  return out;
}

/** Drop images other than the current one. */
async function prune(cache: Cache, keep: string): Promise<void> {
  for (const req of await cache.keys()) if (req.url !== keep) await cache.delete(req);
}
