// Finding modules for `import`/`include`: the -L directories (default
// ~/.jq, $ORIGIN/../lib/jq, $ORIGIN/../lib), `name.jq` or `name/name.jq`
// for code, `name.json` for data (all of its JSON texts, as an array).

import { SysError } from '../../../../abi/errno.js';
import type { Sys } from '../../../../libc/sys.js';
import type { ModuleSource } from '../engine/engine.js';
import { parseJsonAll } from '../engine/json-parse.js';

const ORIGIN = '/opt/agentos/jq/current/libexec';

export function loadModuleFrom(sys: Sys, env: Record<string, string>, libPaths: string[], path: string, data: boolean): ModuleSource | null {
  const dirs = libPaths.length ? libPaths : ['~/.jq', '$ORIGIN/../lib/jq', '$ORIGIN/../lib'];
  const base = path.replace(/.*\//, '');
  const ext = data ? '.json' : '.jq';
  for (const d of dirs) {
    const dir = d.replace(/^~(?=\/|$)/, env.HOME ?? '/').replace(/^\$ORIGIN/, ORIGIN);
    for (const cand of [`${dir}/${path}${ext}`, `${dir}/${path}/${base}${ext}`]) {
      let text: string;
      try {
        text = new TextDecoder().decode(sys.readFile(cand));
      } catch (e) {
        if (e instanceof SysError) continue;
        throw e;
      }
      return data ? { data: parseJsonAll(text) } : { text };
    }
  }
  return null;
}
