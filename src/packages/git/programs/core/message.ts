// Commit messages: git's cleanup modes and the subject line.

export type Cleanup = 'strip' | 'whitespace' | 'verbatim' | 'scissors';

/** git's stripspace: trailing whitespace off every line, runs of blank lines squeezed, blank ends dropped. */
export function cleanupMessage(msg: string, mode: Cleanup, commentChar = '#'): string {
  if (mode === 'verbatim') return msg;
  let lines = msg.split('\n');
  if (mode === 'scissors') {
    const cut = lines.findIndex((l) => l === `${commentChar} ------------------------ >8 ------------------------`);
    if (cut >= 0) lines = lines.slice(0, cut);
  }
  const out: string[] = [];
  let blank = 0;
  for (let l of lines) {
    if ((mode === 'strip' || mode === 'scissors') && l.startsWith(commentChar)) continue;
    l = l.replace(/[ \t\r\v\f]+$/, '');
    if (l === '') {
      blank++;
      continue;
    }
    if (blank && out.length) out.push('');
    blank = 0;
    out.push(l);
  }
  return out.length ? out.join('\n') + '\n' : '';
}

/** %s: the first paragraph, lines joined with spaces. */
export function subjectOf(msg: string): string {
  const lines = msg.replace(/^\n+/, '').split('\n');
  const para: string[] = [];
  for (const l of lines) {
    if (l.trim() === '') break;
    para.push(l.trim());
  }
  return para.join(' ');
}

/** %b: everything after the first paragraph. */
export function bodyOf(msg: string): string {
  const lines = msg.replace(/^\n+/, '').split('\n');
  let i = 0;
  while (i < lines.length && lines[i].trim() !== '') i++;
  while (i < lines.length && lines[i].trim() === '') i++;
  const rest = lines.slice(i).join('\n');
  return rest;
}
