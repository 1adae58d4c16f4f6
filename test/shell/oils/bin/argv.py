#!/usr/bin/env node
// Prints its arguments as Python 2 prints a list of byte strings: ['a', 'b c'].
// (The Oils spec tests' spec/bin/argv.py does that; this is the same output in
// JavaScript, so it runs under node on the host and in the VM.)
function repr(s) {
  const bytes = Buffer.from(s, 'utf8');
  const q = bytes.includes(0x27) && !bytes.includes(0x22) ? '"' : "'";
  let out = q;
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    if (c === q || c === '\\') out += '\\' + c;
    else if (c === '\t') out += '\\t';
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (b < 0x20 || b >= 0x7f) out += '\\x' + b.toString(16).padStart(2, '0');
    else out += c;
  }
  return out + q;
}
process.stdout.write('[' + process.argv.slice(2).map(repr).join(', ') + ']\n');
