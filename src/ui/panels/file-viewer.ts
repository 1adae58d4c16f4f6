// Viewing a VM file: a modal dialog with its text (or a note for binary
// data) and a download button.

import { el, humanSize } from '../dom.js';

const SHOW_LIMIT = 512 * 1024;

export function download(name: string, data: Uint8Array): void {
  const url = URL.createObjectURL(new Blob([data as BlobPart]));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function looksBinary(b: Uint8Array): boolean {
  return b.subarray(0, 8000).includes(0);
}

export function viewFile(path: string, data: Uint8Array): void {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const body = looksBinary(data)
    ? el('p', { className: 'muted' }, `Binary file, ${humanSize(data.length)}.`)
    : el('pre', { className: 'file-text', tabIndex: 0 }, new TextDecoder().decode(data.subarray(0, SHOW_LIMIT)) +
      (data.length > SHOW_LIMIT ? `\n… (${humanSize(data.length - SHOW_LIMIT)} more; download to see it all)` : ''));
  const save = el('button', { type: 'button', textContent: 'Download' });
  save.addEventListener('click', () => download(name, data));
  const close = el('button', { type: 'submit', textContent: 'Close' });
  const dialog = el('dialog', { className: 'viewer', ariaLabel: path },
    el('form', { method: 'dialog' },
      el('header', {}, el('h2', {}, path), el('span', { className: 'muted' }, humanSize(data.length))),
      body,
      el('menu', {}, save, close)));
  document.body.append(dialog);
  dialog.addEventListener('close', () => dialog.remove(), { once: true });
  dialog.showModal();
  close.focus();
}
