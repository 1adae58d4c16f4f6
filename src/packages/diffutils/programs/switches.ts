// The options as the user typed them, operands left out: GNU diff repeats
// them in the "diff -r -u a/x b/x" line it prints before each pair of files
// compared inside directories (getopt moves options before operands).

import { quotef } from '../../../userland/lib/index.js';

export function optionWords(args: string[], short: string, long: Record<string, [string, string]>): string {
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      words.push(a);
      break;
    }
    if (a.length < 2 || a[0] !== '-') continue;
    words.push(a);
    if (a.startsWith('--')) {
      if (a.includes('=')) continue;
      const name = a.slice(2);
      const hits = Object.keys(long).filter((k) => k === name || k.startsWith(name));
      const full = hits.includes(name) ? name : hits[0];
      if (full !== undefined && long[full][1] === 'required' && i + 1 < args.length) words.push(args[++i]);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const k = short.indexOf(a[j]);
      if (k >= 0 && short[k + 1] === ':') {
        if (j === a.length - 1 && i + 1 < args.length) words.push(args[++i]);
        break;
      }
    }
  }
  return words.map((w) => ` ${quotef(w)}`).join('');
}
