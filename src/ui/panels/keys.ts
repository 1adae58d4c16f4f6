// The playground's API keys: a person enters their own key (an environment
// variable name, the hosts it is for, the value); it is kept in this page's
// localStorage and given to the VM as a host-held secret (policy.secrets), so
// the guest sees only a placeholder and the kernel puts the value in request
// headers bound for those hosts. Keys apply when the VM starts (a reload).

import type { NetworkPolicy, Policy } from '../../api/policy.js';
import { checkPolicy } from '../../host/check-policy.js';
import { el } from '../dom.js';

const STORE = 'agentos-secrets';

type Secrets = NonNullable<Policy['secrets']>;

/** The keys kept in this page's storage (none when the stored text is not a valid secrets object). */
export function storedSecrets(): Secrets {
  try {
    const s = JSON.parse(localStorage.getItem(STORE) ?? '{}') as unknown;
    return checkPolicy({ secrets: s }).secrets ?? {};
  } catch {
    return {};
  }
}

/**
 * The page's policy with the stored keys: their hosts are the network when
 * the page's policy sets none (a key for api.x.com is a wish to reach it;
 * nothing else is opened), and any network it sets stands as it is.
 */
export function withStoredSecrets(policy: Policy | undefined): Policy | undefined {
  const kept = storedSecrets();
  const names = Object.keys(kept);
  if (!names.length) return policy;
  const network: NetworkPolicy = policy?.network ?? { allow: [...new Set(names.flatMap((n) => kept[n].hosts))] };
  return checkPolicy({ ...policy, network, secrets: { ...kept, ...policy?.secrets } });
}

export class KeysPanel {
  readonly root: HTMLElement;
  private readonly name = el('input', { type: 'text', placeholder: 'OPENAI_API_KEY', ariaLabel: 'Variable name', spellcheck: false, required: true });
  private readonly hosts = el('input', { type: 'text', placeholder: 'api.openai.com', ariaLabel: 'Hosts (commas)', spellcheck: false, required: true });
  private readonly value = el('input', { type: 'password', placeholder: 'key', ariaLabel: 'Key', autocomplete: 'off', required: true });
  private readonly list = el('ul', { className: 'keys', ariaLabel: 'Keys' });
  private readonly message = el('p', { className: 'muted', role: 'status' });

  constructor() {
    const form = el('form', { className: 'keys-form' }, this.name, this.hosts, this.value, el('button', { type: 'submit', className: 'small', textContent: 'Save key' }));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.save();
    });
    const about = el('p', { className: 'muted' },
      'Your own API keys, kept in this browser only. Programs in the VM see $NAME as a placeholder; ',
      'agentOS puts the key into request headers sent to the listed hosts, and nowhere else. Keys apply when the VM next starts (reload).');
    this.root = el('section', { id: 'keys', className: 'panel' }, about, form, this.list, this.message);
    this.render();
  }

  private save(): void {
    const name = this.name.value.trim();
    const secret = { value: this.value.value, hosts: this.hosts.value.split(/[\s,]+/).filter(Boolean) };
    try {
      checkPolicy({ secrets: { [name]: secret } });
    } catch (e) {
      this.message.textContent = (e as Error).message;
      return;
    }
    localStorage.setItem(STORE, JSON.stringify({ ...storedSecrets(), [name]: secret }));
    this.name.value = this.hosts.value = this.value.value = '';
    this.message.textContent = `Saved ${name}. Reload to give it to the VM.`;
    this.render();
  }

  private remove(name: string): void {
    const { [name]: _gone, ...rest } = storedSecrets();
    localStorage.setItem(STORE, JSON.stringify(rest));
    this.message.textContent = `Removed ${name}. Reload to take it from the VM.`;
    this.render();
  }

  private render(): void {
    const kept = storedSecrets();
    // The value is never shown again.
    this.list.replaceChildren(...Object.entries(kept).map(([name, s]) => {
      const del = el('button', { className: 'small danger', textContent: 'Remove' });
      del.addEventListener('click', () => this.remove(name));
      return el('li', { dataset: { name } }, el('span', { className: 'name' }, `$${name}`), el('span', { className: 'muted' }, s.hosts.join(', ')), del);
    }));
  }
}
