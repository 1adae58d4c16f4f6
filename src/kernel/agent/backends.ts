// The registry of model backends: a model string selects one by name
// (`mock:<script>` → mock; `openai:gpt-4o` → openai; a bare name through the
// operator's /etc/aos/models.yaml `backend:`). Adding a backend is one entry.
// A provider's entry in the table may give `base_url` and `api_key_secret`:
// the NAME of a host-held secret (policy.secrets), whose placeholder goes into
// the key header, so the kernel's HTTP path puts the key in only for that
// secret's hosts and the key is never in the VM.

import { Errno, SysError } from '../../abi/errno.js';
import type { Kernel } from '../kernel.js';
import type { Backend } from './backend.js';
import { anthropicBackend } from './backends/anthropic.js';
import { openaiBackend } from './backends/openai.js';
import type { ProviderConfig } from './backends/request.js';
import { mockBackend } from './mock.js';
import type { ModelPrice } from './pricing.js';

const PROVIDERS = new Map<string, (cfg: ProviderConfig) => Backend>([
  ['openai', openaiBackend],
  ['anthropic', anthropicBackend],
]);

export function hasBackend(name: string): boolean {
  return name === mockBackend.name || PROVIDERS.has(name);
}

/** The backend for a model the table priced, configured from its entry. */
export function backendFor(k: Kernel, price: ModelPrice): Backend {
  if (price.backend === mockBackend.name) return mockBackend;
  const make = PROVIDERS.get(price.backend);
  if (!make) throw new SysError(Errno.EINVAL, `no backend named ${price.backend}`);
  let apiKey: string | undefined;
  if (price.apiKeySecret) {
    apiKey = k.net.secrets.token(price.apiKeySecret);
    if (!apiKey) throw new SysError(Errno.EINVAL, `the model table names the secret ${price.apiKeySecret}, which the VM's policy.secrets does not hold`);
  }
  return make({ baseUrl: price.baseUrl, apiKey, keyHeader: price.keyHeader });
}
