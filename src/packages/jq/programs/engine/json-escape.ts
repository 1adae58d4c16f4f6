// JSON string escapes and the parse error type shared by the reader's two paths.

export class ParseError {
  constructor(readonly msg: string) {}
}

/** Unescape a JSON string body; a ParseError describes a bad escape. */
export function unescapeJson(raw: string): string | ParseError {
  let out = '';
  let last = 0;
  for (let k = raw.indexOf('\\'); k >= 0; k = raw.indexOf('\\', last)) {
    out += raw.slice(last, k);
    const e = raw[k + 1];
    last = k + 2;
    switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        const h = raw.slice(k + 2, k + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(h)) return new ParseError('Invalid \\uXXXX escape');
        const cp = parseInt(h, 16);
        last = k + 6;
        if (cp >= 0xd800 && cp <= 0xdbff) {
          const m = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(raw.slice(last));
          if (!m) return new ParseError('Invalid \\uXXXX\\uXXXX surrogate pair escape');
          out += String.fromCharCode(cp, parseInt(m[1], 16));
          last += 6;
        } else if (cp >= 0xdc00 && cp <= 0xdfff) out += '\ufffd';
        else out += String.fromCharCode(cp);
        break;
      }
      default:
        return new ParseError('Invalid escape');
    }
  }
  return out + raw.slice(last);
}
