import { command } from '../../../userland/lib/index.js';
export const stty = command({ name: 'stty', usage: 'x' }, () => 0);
