// ES module → async function body, with a small scanner of our own (strings,
// comments, templates and regex literals skipped; brackets counted) instead of
// a parser. Top-level import/export statements become calls into the loader:
//
//   line 1:  __export({name: () => local, ...}); await __deps; const {a: b} = __ns[0], c = __ns[1].default;
//   body:    the source with import statements blanked (newlines kept, so stack
//            traces keep their line numbers) and `export` keywords removed;
//            `import(` → `__import(`, `import.meta` → `__meta`.
//
// Getters registered before the dependencies run make cycles work for hoisted
// functions, as in real ESM. Limits: imported bindings are snapshots taken
// after the dependencies have run, not live bindings; in `export const {a} = o, b = 1`
// only the first declarator may be a pattern.

export interface Transformed {
  code: string;
  /** Static dependency specifiers, in source order; __ns[i] is the i-th one's namespace. */
  deps: string[];
  /** Names imported from each dependency (by index), checked against its exports at link time. */
  names: string[][];
}

const KEYWORDS_BEFORE_REGEX = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

interface Edit { start: number; end: number; text: string }
interface Found { pos: number; kind: 'stmt' | 'dyn' | 'meta' }

/** Find `import`/`export` keywords outside strings, comments, templates and regexes (and, into `comments`, where comments are). */
function scan(src: string, comments: Edit[] = []): Found[] {
  const out: Found[] = [];
  let depth = 0;
  const tplDepths: number[] = [];
  let regexOk = true;
  const n = src.length;
  let i = 0;
  const skipTemplate = () => {
    // at the char after '`' or after the '}' closing a ${}: runs to '`' or '${'
    while (i < n) {
      const c = src[i];
      if (c === '\\') { i += 2; continue; }
      if (c === '`') { i++; regexOk = false; return; }
      if (c === '$' && src[i + 1] === '{') { i += 2; tplDepths.push(depth); depth++; regexOk = true; return; }
      i++;
    }
  };
  while (i < n) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') { i++; continue; }
    if (c === '/' && src[i + 1] === '/') { const s = i, e = src.indexOf('\n', i); i = e < 0 ? n : e; comments.push({ start: s, end: i, text: '' }); continue; }
    if (c === '/' && src[i + 1] === '*') { const s = i, e = src.indexOf('*/', i + 2); i = e < 0 ? n : e + 2; comments.push({ start: s, end: i, text: '' }); continue; }
    if (c === '"' || c === "'") {
      i++;
      while (i < n && src[i] !== c && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
      i++;
      regexOk = false;
      continue;
    }
    if (c === '`') { i++; skipTemplate(); continue; }
    if (c === '/') {
      if (regexOk) {
        i++;
        let cls = false;
        while (i < n && src[i] !== '\n') {
          const d = src[i];
          if (d === '\\') { i += 2; continue; }
          if (d === '[') cls = true;
          else if (d === ']') cls = false;
          else if (d === '/' && !cls) break;
          i++;
        }
        i++;
        while (i < n && /[\w$]/.test(src[i])) i++;
        regexOk = false;
      } else { i++; regexOk = true; }
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      const s = i;
      while (i < n && /[\w$]/.test(src[i])) i++;
      const w = src.slice(s, i);
      const prev = s > 0 ? src[s - 1] : '';
      if ((w === 'import' || w === 'export') && prev !== '.') {
        let j = i;
        while (j < n && /\s/.test(src[j])) j++;
        if (w === 'import' && src[j] === '(') out.push({ pos: s, kind: 'dyn' });
        else if (w === 'import' && src[j] === '.') out.push({ pos: s, kind: 'meta' });
        else if (depth === 0) out.push({ pos: s, kind: 'stmt' });
      }
      regexOk = KEYWORDS_BEFORE_REGEX.has(w);
      continue;
    }
    if (/[0-9]/.test(c)) { while (i < n && /[\w.]/.test(src[i])) i++; regexOk = false; continue; }
    if (c === '{' || c === '(' || c === '[') { depth++; i++; regexOk = true; continue; }
    if (c === '}' && tplDepths.length && tplDepths[tplDepths.length - 1] === depth - 1) {
      tplDepths.pop();
      depth--;
      i++;
      skipTemplate();
      continue;
    }
    if (c === '}' || c === ')' || c === ']') { depth--; i++; regexOk = false; continue; }
    i++;
    regexOk = true;
  }
  return out;
}

const newlines = (s: string) => s.replace(/[^\n]/g, '');

/** Identifiers bound by a destructuring pattern (approximate: names not followed by ':'). */
function patternNames(p: string): string[] {
  const names: string[] = [];
  const re = /\.\.\.\s*([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*)\s*(:)?/g;
  let m: RegExpExecArray | null;
  const body = p.replace(/=[^,}\]]*/g, '');
  while ((m = re.exec(body))) {
    if (m[1]) names.push(m[1]);
    else if (!m[3]) names.push(m[2]);
  }
  return names;
}

/** For CommonJS and eval code: `import(` → `__import(`, so dynamic imports use the VFS loader. */
export function rewriteDynamicImports(src: string): string {
  if (!/\bimport\s*\(/.test(src)) return src;
  let out = src;
  for (const f of scan(src).filter((x) => x.kind === 'dyn').reverse()) out = `${out.slice(0, f.pos)}__import${out.slice(f.pos + 6)}`;
  return out;
}

const CONTINUES = /[,=+\-*/%&|^<>?:.([{!~]/;

/** The names a `const a = 1, b = 2` declaration binds (the text after the keyword): one per top-level comma. */
function declaratorNames(s: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let i = 0;
  let expect = true;
  while (i < s.length) {
    if (expect) {
      const m = /^\s*([A-Za-z_$][\w$]*)(?=\s*(?:[=,;\n]|$))/.exec(s.slice(i));
      if (m) {
        names.push(m[1]);
        i += m[0].length;
      }
      expect = false;
      continue;
    }
    const c = s[i];
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < s.length && s[i] !== c; i++) if (s[i] === '\\') i++;
    } else if (c === '/' && (s[i + 1] === '/' || s[i + 1] === '*')) {
      const end = s.indexOf(s[i + 1] === '/' ? '\n' : '*/', i + 2);
      if (end < 0) break;
      i = s[i + 1] === '/' ? end - 1 : end + 1;
    } else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (depth === 0 && c === ',') expect = true;
    else if (depth === 0 && c === ';') break;
    else if (depth === 0 && c === '\n') {
      // ASI ends the declaration unless the line break sits inside an expression.
      if (!CONTINUES.test(s.slice(0, i).trimEnd().slice(-1)) && !CONTINUES.test(s.slice(i).trimStart()[0] ?? '')) break;
    }
    i++;
  }
  return names;
}

export function transformEsm(src: string): Transformed {
  if (src.startsWith('#!')) src = '//' + src.slice(2);
  const edits: Edit[] = [];
  const deps: string[] = [];
  const names: string[][] = [];
  const exportGetters: string[] = [];
  const importDecls: string[] = [];
  const stars: number[] = [];
  const depIndex = (spec: string) => {
    let k = deps.indexOf(spec);
    if (k < 0) k = deps.push(spec) - 1;
    return k;
  };
  let defaultVar = false;
  // Statements are matched on a copy with comments blanked (same length, newlines kept), so a comment
  // inside `import { a, // why\n b } from` does not hide the statement.
  const comments: Edit[] = [];
  const found = scan(src, comments);
  let clean = src;
  if (comments.length) {
    const parts: string[] = [];
    let at = 0;
    for (const c of comments) {
      parts.push(src.slice(at, c.start), src.slice(c.start, c.end).replace(/[^\n]/g, ' '));
      at = c.end;
    }
    clean = parts.join('') + src.slice(at);
  }
  for (const f of found) {
    const at = clean.slice(f.pos);
    if (f.kind === 'dyn') { edits.push({ start: f.pos, end: f.pos + 6, text: '__import' }); continue; }
    if (f.kind === 'meta') {
      const m = /^import\s*\.\s*meta\b/.exec(at);
      if (m) edits.push({ start: f.pos, end: f.pos + m[0].length, text: '__meta' });
      continue;
    }
    let m: RegExpExecArray | null;
    if (at.startsWith('import')) {
      m = /^import\s*(?:([\w$*\s{},]+?)\s*from\s*)?(['"])(.*?)\2(?:\s*(?:with|assert)\s*\{[^}]*\})?\s*;?/s.exec(at);
      if (!m) continue;
      const k = depIndex(m[3]);
      const clause = (m[1] ?? '').trim();
      edits.push({ start: f.pos, end: f.pos + m[0].length, text: newlines(m[0]) });
      if (!clause) continue;
      const ns = `__ns[${k}]`;
      const parts: string[] = [];
      const named = /\{([^}]*)\}/.exec(clause);
      const rest = clause.replace(/\{[^}]*\}/, '').split(',').map((s) => s.trim()).filter(Boolean);
      for (const r of rest) {
        const star = /^\*\s*as\s+([\w$]+)$/.exec(r);
        if (star) parts.push(`${star[1]} = ${ns}`);
        else parts.push(`${r} = ${ns}.default`);
      }
      if (named) {
        const binds = named[1].split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
          const a = /^(?:(['"])(.*)\1|([\w$]+))\s+as\s+([\w$]+)$/.exec(s);
          (names[k] ??= []).push(a ? (a[2] ?? a[3]) : s);
          return a ? `${JSON.stringify(a[2] ?? a[3])}: ${a[4]}` : s;
        });
        if (binds.length) parts.push(`{${binds.join(', ')}} = ${ns}`);
      }
      importDecls.push(...parts);
      continue;
    }
    // export ...
    if ((m = /^export\s+default\s+(?:(async\s+function\b\s*\*?\s*|function\b\s*\*?\s*)([\w$]+)|class\s+([\w$]+))/.exec(at))) {
      const name = m[2] ?? m[3];
      edits.push({ start: f.pos, end: f.pos + /^export\s+default\s+/.exec(at)![0].length, text: '' });
      exportGetters.push(`default: () => ${name}`);
    } else if ((m = /^export\s+default\s+/.exec(at))) {
      edits.push({ start: f.pos, end: f.pos + m[0].length, text: '__default = ' });
      defaultVar = true;
      exportGetters.push('default: () => __default');
    } else if ((m = /^export\s+(?:async\s+function\b\s*\*?\s*|function\b\s*\*?\s*|class\s+)([\w$]+)/.exec(at))) {
      edits.push({ start: f.pos, end: f.pos + 6, text: '' });
      exportGetters.push(`${m[1]}: () => ${m[1]}`);
    } else if ((m = /^export\s+(?:const|let|var)\s+/.exec(at))) {
      edits.push({ start: f.pos, end: f.pos + 6, text: '' });
      const after = at.slice(m[0].length);
      let names: string[];
      if (after[0] === '{' || after[0] === '[') {
        const close = after[0] === '{' ? '}' : ']';
        let d = 0;
        let e = 0;
        for (; e < after.length; e++) {
          if (after[e] === after[0]) d++;
          else if (after[e] === close && --d === 0) break;
        }
        names = patternNames(after.slice(1, e));
      } else names = declaratorNames(after);
      for (const nm of names) if (nm) exportGetters.push(`${nm}: () => ${nm}`);
    } else if ((m = /^export\s*\*\s*(?:as\s+([\w$]+)\s*)?from\s*(['"])(.*?)\2\s*;?/.exec(at))) {
      const k = depIndex(m[3]);
      edits.push({ start: f.pos, end: f.pos + m[0].length, text: newlines(m[0]) });
      if (m[1]) exportGetters.push(`${m[1]}: () => __ns[${k}]`);
      else stars.push(k);
    } else if ((m = /^export\s*\{([^}]*)\}\s*(?:from\s*(['"])(.*?)\2)?\s*;?/.exec(at))) {
      const k = m[3] !== undefined ? depIndex(m[3]) : -1;
      edits.push({ start: f.pos, end: f.pos + m[0].length, text: newlines(m[0]) });
      for (const item of m[1].split(',').map((s) => s.trim()).filter(Boolean)) {
        const a = /^([\w$]+)(?:\s+as\s+(?:(['"])(.*)\2|([\w$]+)))?$/.exec(item);
        if (!a) continue;
        const local = a[1];
        const exported = a[3] ?? a[4] ?? local;
        const key = JSON.stringify(exported);
        exportGetters.push(k >= 0 ? `${key}: () => __ns[${k}][${JSON.stringify(local)}]` : `${key}: () => ${local}`);
      }
    }
  }
  edits.sort((a, b) => b.start - a.start);
  let body = src;
  for (const e of edits) body = body.slice(0, e.start) + e.text + body.slice(e.end);
  // The module's scope is a block inside the wrapper, so its own bindings (`import process from
  // 'node:process'`, `const global = ...`) shadow the wrapper's parameters instead of colliding.
  const head = [
    "'use strict'; {",
    defaultVar ? 'var __default;' : '',
    `__export({${exportGetters.join(', ')}}, [${stars.join(', ')}]);`,
    'await __deps();',
    importDecls.length ? `const ${importDecls.join(', ')};` : '',
  ].join(' ');
  return { code: `${head}${body}\n}`, deps, names };
}
