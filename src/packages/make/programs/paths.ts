// Path helpers: make's $(abspath) canonicalises without touching the file system.

import type { Make } from './context.js';

export function canonPath(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

export function cwdOf(mk: Make): string {
  return mk.sys.getcwd();
}
