// The runtime's build directory on the Node host (dist/, the worker's code
// being in dist/node/), as a path, or null elsewhere. Found when the worker's
// code loads (js/repository.ts, loaded with the worker, imports this), before
// any program runs there: a program shares the worker's realm and can replace
// URL, its getters and the built-ins' methods, so a host path computed later,
// while it runs, could be steered anywhere on the host.

export const HOST_DIST_DIR: string | null =
  typeof process !== 'undefined' && !!process.versions?.node && import.meta.url.startsWith('file:')
    ? decodeURIComponent(new URL('../', import.meta.url).pathname)
    : null;
