// openssl COMMAND [OPTION]...   The everyday commands of the OpenSSL 3.0
// command line: dgst (and md5, sha1, sha256, sha512), rand, base64, enc
// (AES-128/192/256 in CBC, ECB and CTR; keys from PBKDF2 or EVP_BytesToKey;
// the "Salted__" header), version. Same output and file formats as OpenSSL,
// so files and digests interoperate; everything runs in JavaScript.

import type { AgentosApi } from '../../../runtimes/js/api.js';
import { dgst } from './dgst.js';
import { enc } from './enc.js';
import { rand } from './rand.js';
import { Tool } from './tool.js';

const COMMANDS = `Standard commands
base64            dgst              enc               help
rand              version

Message Digest commands (see the \`dgst' command for more details)
md5               sha1              sha256            sha512

Cipher commands (see the \`enc' command for more details)
aes-128-cbc       aes-128-ctr       aes-128-ecb       aes-192-cbc
aes-192-ctr       aes-192-ecb       aes-256-cbc       aes-256-ctr
aes-256-ecb       base64
`;

const VERSION = 'agentOS openssl 0.1.0 (the OpenSSL 3.0 command line for dgst, rand, base64 and enc, in JavaScript; not OpenSSL)\n';

export default function main(os: AgentosApi): void {
  os.exit(run(os));
}

function run(os: AgentosApi): number {
  const [cmd, ...args] = os.argv.slice(1);
  if (cmd === undefined || cmd === 'help') {
    os.eprint(`help:\n\n${COMMANDS}`);
    return 0;
  }
  const t = new Tool(os, cmd);
  try {
    switch (cmd) {
      case 'version':
        os.print(VERSION);
        return 0;
      case 'dgst':
        return dgst(t, args, null);
      case 'md5':
      case 'sha1':
      case 'sha256':
      case 'sha512':
        return dgst(t, args, cmd);
      case 'rand':
        return rand(t, args);
      case 'base64':
        return enc(t, ['-base64', ...args]);
      case 'enc':
        return enc(t, args);
      default:
        if (/^aes-(128|192|256)-(cbc|ecb|ctr)$/.test(cmd)) return enc(t, [`-${cmd}`, ...args]);
        os.eprint(`Invalid command '${cmd}'; type "help" for a list.\n`);
        return 1;
    }
  } finally {
    t.flush();
  }
}
