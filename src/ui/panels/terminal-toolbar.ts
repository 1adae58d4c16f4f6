// Buttons above the terminal: copy, paste, find, screen-reader mode. The
// shortcuts (Ctrl+Shift+C/V, F6 to leave the terminal) are listed in a hint.

import { el } from '../dom.js';
import type { XtermView } from '../term/xterm-view.js';

export function terminalToolbar(view: XtermView): HTMLElement {
  const copy = el('button', { className: 'small', textContent: 'Copy', title: 'Copy the selection (Ctrl+Shift+C)' });
  const paste = el('button', { className: 'small', textContent: 'Paste', title: 'Paste (Ctrl+Shift+V)' });
  const find = el('input', { type: 'search', placeholder: 'Find', ariaLabel: 'Find in the terminal', className: 'find' });
  const reader = el('input', { type: 'checkbox', id: 'screen-reader' });
  copy.addEventListener('click', () => void view.copy().finally(() => view.focus()));
  paste.addEventListener('click', () => void view.paste().finally(() => view.focus()));
  find.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') view.find(find.value, e.shiftKey);
    if (e.key === 'Escape') view.focus();
  });
  reader.addEventListener('change', () => {
    view.screenReader = reader.checked;
    view.focus();
  });
  return el('div', { className: 'toolbar', role: 'toolbar', ariaLabel: 'Terminal' },
    copy, paste, find,
    el('label', { className: 'check' }, reader, 'Screen reader mode'),
    el('span', { className: 'hint muted' }, 'F6 leaves the terminal'));
}
