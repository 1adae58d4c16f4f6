// isomorphic-git uses the Node `Buffer` global. Node's workers have it; browser
// workers do not, so the `buffer` package stands in there. Imported first by
// the entry so it runs before any isomorphic-git code.

import { Buffer } from 'buffer';

const g = globalThis as { Buffer?: unknown };
g.Buffer ??= Buffer;
