// A kernel worker that dies (an uncaught error in it, or the host killing it)
// must not leave its host's calls waiting forever: Comlink would never settle
// them. Every call on the guarded service settles with the death instead.

import type { Remote } from 'comlink';
import type { KernelService } from '../worker/kernel-service.js';

export function guardKernel(service: Remote<KernelService>, died: Promise<never>): Remote<KernelService> {
  died.catch(() => {}); // only calls made meanwhile should see it
  return new Proxy(service, {
    get(target, prop) {
      const member = Reflect.get(target, prop) as unknown;
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => Promise.race([(member as (...a: unknown[]) => unknown)(...args), died]);
    },
  });
}
