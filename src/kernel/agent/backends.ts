// The registry of model backends: a model string selects one by name
// (`mock:<script>` → mock; `openai:gpt-4o` → openai; a bare name through the
// operator's /etc/aos/models.yaml `backend:`). Adding a backend is one entry.

import type { Backend } from './backend.js';
import { mockBackend } from './mock.js';

const BACKENDS = new Map<string, Backend>([mockBackend].map((b) => [b.name, b]));

export function backendNamed(name: string): Backend | undefined {
  return BACKENDS.get(name);
}
