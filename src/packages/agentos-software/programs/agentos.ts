// agentos: the VM's own view of agentOS. `agentos snapshot ...` manages
// snapshots of the writable layer from inside, as the host CLI and API do
// (kernel/sys/snapshot.ts). A restore stops every process, this one included.

import { strerror, SysError } from '../../../abi/errno.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';

const USAGE = `Usage: agentos snapshot COMMAND [ARG]...

  create NAME             save the writable layer (every file changed since the
                          base image) as snapshot NAME
  list                    show the snapshots: name, size, date
  restore NAME            make NAME the writable layer; every process stops,
                          this shell included (status 0, with a note on stderr),
                          and the next command runs in the restored files
  delete NAME             remove snapshot NAME
  export NAME FILE        write NAME as one portable .aosnap file
  import FILE [NAME]      store a portable file as a snapshot (NAME defaults to
                          the file name without its extension)
`;

const ARITY: Record<string, [number, number, string]> = {
  create: [1, 1, 'create NAME'], list: [0, 0, 'list'], restore: [1, 1, 'restore NAME'], delete: [1, 1, 'delete NAME'],
  export: [2, 2, 'export NAME FILE'], import: [1, 2, 'import FILE [NAME]'],
};

export default function main(os: AgentosApi): void {
  const [area, cmd, ...args] = os.argv.slice(1);
  if (area === '--help' || area === 'help') return void os.print(USAGE);
  if (area !== 'snapshot') {
    os.eprint(area === undefined ? USAGE : `agentos: unknown command '${area}' (the VM's agentos knows 'snapshot')\n`);
    return os.exit(2);
  }
  if (cmd === '--help' || cmd === 'help') return void os.print(USAGE);
  const arity = cmd === undefined ? undefined : ARITY[cmd];
  if (!arity) {
    os.eprint(cmd === undefined ? USAGE : `agentos snapshot: unknown command '${cmd}'\n${USAGE}`);
    return os.exit(2);
  }
  if (args.length < arity[0] || args.length > arity[1]) {
    os.eprint(`agentos snapshot: usage: agentos snapshot ${arity[2]}\n`);
    return os.exit(2);
  }
  try {
    switch (cmd) {
      case 'create': {
        const info = os.sys.snapshot('create', args[0]);
        return void os.print(`created snapshot ${info.name} (${size(info.bytes)})\n`);
      }
      case 'list':
        for (const s of os.sys.snapshot('list')) os.print(`${s.name}\t${size(s.bytes)}\t${new Date(s.mtimeMs).toISOString()}\n`);
        return;
      case 'export':
        os.sys.snapshot('export', args[0], args[1]);
        return void os.print(`exported ${args[0]} to ${args[1]}\n`);
      case 'import': {
        const name = args[1] ?? args[0].replace(/^.*\//, '').replace(/\.[^.]*$/, '');
        const info = os.sys.snapshot('import', args[0], name);
        return void os.print(`imported ${info.name} (${size(info.bytes)})\n`);
      }
      default: // restore (never returns) and delete
        os.sys.snapshot(cmd as 'restore' | 'delete', args[0]);
    }
  } catch (e) {
    if (!(e instanceof SysError)) throw e;
    const detail = /\((.*)\)$/.exec(e.message)?.[1];
    os.eprint(`agentos snapshot: ${cmd}: ${detail && detail !== 'snapshot' ? detail : strerror(e.errno)}\n`);
    os.exit(1);
  }
}

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1 << 20 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / (1 << 20)).toFixed(1)} MiB`;
}
