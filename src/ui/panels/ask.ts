// A confirmation dialog (modal <dialog>, keyboard usable): resolves true on OK.

import { el } from '../dom.js';

export function ask(message: string, ok: string): Promise<boolean> {
  const yes = el('button', { type: 'submit', value: 'ok', className: 'danger', textContent: ok });
  const no = el('button', { type: 'submit', value: 'cancel', textContent: 'Cancel' });
  const dialog = el('dialog', { className: 'ask' }, el('form', { method: 'dialog' }, el('p', {}, message), el('menu', {}, no, yes)));
  document.body.append(dialog);
  dialog.showModal();
  no.focus();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'ok');
      dialog.remove();
    }, { once: true });
  });
}
