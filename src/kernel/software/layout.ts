// Where packages live: /opt/agentos/<name>/<version>/, the `current` pointer, and the
// /opt/agentos/bin link farm that $PATH sees.

export const OPT = '/opt/agentos';
export const BIN = `${OPT}/bin`;
/** Most links /opt/agentos/bin may hold; linking warns from WARN_AT on and fails past the limit. */
export const MAX_LINKS = 1024;
export const WARN_AT = Math.floor(MAX_LINKS * 0.9);
