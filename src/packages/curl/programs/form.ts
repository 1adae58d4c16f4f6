// curl -F / --form and --form-string: a multipart/form-data body (RFC 7578).
// `name=value` is a text field; `name=@file` uploads the file (filename and a
// content type guessed from its extension, as curl does); `name=<file` makes
// the file's content a text field; `;type=` and `;filename=` override.

import { concatBytes } from '../../../abi/bytes.js';

export interface FormPart {
  name: string;
  value: Uint8Array;
  filename?: string;
  type?: string;
}

/** curl's guesses for uploaded files; anything else is application/octet-stream. */
const TYPES: Record<string, string> = {
  gif: 'image/gif', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', svg: 'image/svg+xml',
  txt: 'text/plain', htm: 'text/html', html: 'text/html', pdf: 'application/pdf', xml: 'application/xml',
};

const enc = new TextEncoder();

/** One -F argument, or null if it is malformed; `read` gives a file's bytes ('-' is stdin). */
export function formPart(arg: string, literal: boolean, read: (path: string) => Uint8Array): FormPart | null {
  const eq = arg.indexOf('=');
  if (eq <= 0) return null;
  const name = arg.slice(0, eq);
  const spec = arg.slice(eq + 1);
  if (literal) return { name, value: enc.encode(spec) };
  const [content, mods] = splitModifiers(spec);
  const part: FormPart = { name, value: new Uint8Array() };
  if (content.startsWith('@')) {
    const path = content.slice(1);
    part.value = read(path);
    part.filename = path === '-' ? '' : path.replace(/.*\//, '');
    part.type = TYPES[/\.([^./]+)$/.exec(path)?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream';
  } else if (content.startsWith('<')) {
    part.value = read(content.slice(1));
  } else {
    part.value = enc.encode(content);
  }
  for (const m of mods) {
    const eqAt = m.indexOf('=');
    const [k, v] = [m.slice(0, eqAt), m.slice(eqAt + 1)];
    if (k === 'type') part.type = v;
    else if (k === 'filename') part.filename = v;
  }
  return part;
}

/** `content;type=x;filename=y`: the content, then the modifiers (a `;` before any other word stays in the content). */
function splitModifiers(spec: string): [string, string[]] {
  const m = /;(?:type|filename)=/.exec(spec);
  return m ? [spec.slice(0, m.index), spec.slice(m.index + 1).split(';')] : [spec, []];
}

/** The request body and its Content-Type. */
export function multipart(parts: FormPart[], random: () => number = Math.random): { body: Uint8Array; contentType: string } {
  let hex = '';
  while (hex.length < 16) hex += Math.floor(random() * 16).toString(16);
  const boundary = `------------------------${hex}`;
  const chunks: Uint8Array[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quote(p.name)}"`;
    if (p.filename !== undefined) head += `; filename="${quote(p.filename)}"`;
    head += '\r\n';
    if (p.type !== undefined) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(enc.encode(`${head}\r\n`), p.value, enc.encode('\r\n'));
  }
  chunks.push(enc.encode(`--${boundary}--\r\n`));
  return { body: concatBytes(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Quotes and backslashes escaped in a header parameter, as curl does. */
function quote(s: string): string {
  return s.replace(/[\\"]/g, (c) => `\\${c}`);
}
