// vi [+LINE | +/PATTERN | +COMMAND] [FILE]: a screen editor on the terminal; `edit` is the same program.

import { Errno, SysError, strerror } from '../../../abi/errno.js';
import { ECHO, ICANON, ICRNL, IEXTEN, INLCR, ISIG, IXON, OPOST, type Termios, VMIN, VTIME } from '../../../abi/termios.js';
import { SIGHUP, SIGINT, SIGTERM, SIGTSTP, SIGWINCH } from '../../../abi/signal.js';
import type { AgentosApi } from '../../../runtimes/js/api.js';
import { command, tcgetattr, tcsetattr, tryStat, winsize } from '../../../userland/lib/index.js';
import { isDir } from '../../../abi/stat.js';
import { Editor } from './editor.js';
import { fileMessage, type Files } from './ex.js';
import { splitKeys } from './keys.js';
import { Screen } from './screen.js';

const POLLIN = 1;
/** How often a wait for keys looks for a resize that raced it. */
const RESIZE_SLICE_MS = 200;

const USAGE = `Usage: vi [+LINE | +/PATTERN | +COMMAND] [FILE]
  or:  edit [+LINE | +/PATTERN | +COMMAND] [FILE]
Edit FILE on the terminal (a new file is created when it is first written).

  +LINE       start at line LINE (+ alone: the last line)
  +/PATTERN   start at the first match of PATTERN
  +COMMAND    run the ex COMMAND after loading the file
      --help     display this help and exit
      --version  output version information and exit

Normal mode: h j k l and arrows, w b e, 0 ^ $, gg G NG, H M L, f t F T ; ,
Ctrl-F Ctrl-B Ctrl-D Ctrl-U, x X D C s S dd dw d{motion} cc cw yy y{motion}
p P J r ~ u Ctrl-R . with counts (3dd, 5j); i a I A o O enter insert mode,
Esc leaves it. /RE and ?RE search forward and back (RE is a JavaScript
regular expression), n and N repeat. ZZ writes and quits; Ctrl-Z suspends.
Ex commands: :w [FILE], :w! FILE, :q, :q!, :wq, :x, :e [FILE], :N, :$,
:[range]d, :[range]s/RE/REPLACEMENT/[gi], :set nu, :set nonu.
`;

const dec = new TextDecoder();

/** The editor's files through the VFS, failing with vim's messages. */
function files(os: AgentosApi): Files {
  return {
    read(path) {
      try {
        return dec.decode(os.sys.readFile(path));
      } catch (e) {
        if (!(e instanceof SysError)) throw e;
        if (e.errno === Errno.ENOENT) return null;
        if (e.errno === Errno.EISDIR) throw new Error(`"${path}" is a directory`);
        if (e.errno === Errno.EACCES) throw new Error(`"${path}" [Permission Denied]`);
        throw new Error(`"${path}" ${strerror(e.errno)}`);
      }
    },
    exists: (path) => tryStat(os.sys, path) !== null,
    write(path, text) {
      const st = tryStat(os.sys, path);
      if (st && isDir(st.mode)) throw new Error(`E502: "${path}" is a directory`);
      try {
        os.sys.writeFile(path, text);
      } catch (e) {
        if (!(e instanceof SysError)) throw e;
        throw new Error(`"${path}" E212: Can't open file for writing`);
      }
    },
  };
}

/** Raw mode: keys one at a time, unechoed, no signals from the keyboard, no output processing. */
function raw(t: Termios): Termios {
  return {
    ...t,
    iflag: t.iflag & ~(ICRNL | INLCR | IXON),
    oflag: t.oflag & ~OPOST,
    lflag: t.lflag & ~(ICANON | ECHO | ISIG | IEXTEN),
    cc: t.cc.map((c, i) => (i === VMIN ? 1 : i === VTIME ? 0 : c)),
  };
}

/** The editor under either of its names (messages carry the name it was called by). */
const editor = (name: string) => command({ name, usage: USAGE, short: '' }, (c) => {
  const os = c.os;
  const starts = c.operands.filter((a) => a.startsWith('+'));
  const names = c.operands.filter((a) => !a.startsWith('+'));
  if (names.length > 1) c.fail(`Too many edit arguments: "${names[1]}"`);
  let isTty = false;
  try {
    isTty = os.sys.isatty(0);
  } catch {
    // stdin closed
  }
  if (!isTty) c.fail('standard input is not a terminal');

  const file = names[0] ?? '';
  const io = files(os);
  let text: string | null = null;
  let message = '';
  try {
    text = file ? io.read(file) : '';
    message = file ? fileMessage(file, text) : '';
  } catch (e) {
    message = (e as Error).message;
  }
  const ed = new Editor(io, file, text ?? '');
  ed.message = message;

  const saved = tcgetattr(os.sys, 0);
  const size = () => winsize(os.sys, 0) ?? { rows: Number(os.env.LINES) || 24, cols: Number(os.env.COLUMNS) || 80 };
  let { rows, cols } = size();
  const screen = new Screen(rows, cols);
  ed.page = rows - 1;
  let resized = false;
  let deadly = 0;
  os.signal(SIGWINCH, () => {
    resized = true;
  });
  for (const sig of [SIGTERM, SIGHUP, SIGINT]) {
    os.signal(sig, (s) => {
      deadly = s;
    });
  }

  const draw = () => {
    if (resized) {
      resized = false;
      ({ rows, cols } = size());
      screen.rows = rows;
      screen.cols = cols;
      ed.page = rows - 1;
      ed.redraw = true;
    }
    const view = {
      lines: ed.lines, top: ed.top, cur: ed.cur, insert: ed.mode === 'insert', number: ed.number,
      bottom: ed.bottom(), onBottom: ed.mode === 'cmdline', ruler: '',
    };
    ed.top = screen.scroll(view);
    view.top = ed.top;
    view.ruler = ed.ruler(rows - 1);
    const out = (ed.redraw ? screen.invalidate() : '') + screen.frame(view);
    ed.redraw = false;
    os.sys.writeAll(1, `\x1b[?25l${out}\x1b[?25h`);
  };

  // Ctrl-Z as vim does it: the terminal as it was, the group stopped; on fg, raw again and redrawn.
  const suspend = () => {
    os.sys.writeAll(1, '\x1b[?1049l');
    tcsetattr(os.sys, 0, saved);
    os.sys.kill(0, SIGTSTP);
    tcsetattr(os.sys, 0, raw(tcgetattr(os.sys, 0)));
    os.sys.writeAll(1, '\x1b[?1049h');
    resized = true;
  };
  tcsetattr(os.sys, 0, raw(saved));
  os.sys.writeAll(1, '\x1b[?1049h');
  ed.redraw = true;
  let status = 0;
  try {
    for (const s of starts) {
      const cmd = s.slice(1);
      for (const k of splitKeys(cmd === '' ? ':$\r' : cmd.startsWith('/') ? `${cmd}\r` : `:${cmd}\r`)) ed.key(k);
    }
    if (!ed.quit) draw();
    const decoder = new TextDecoder();
    while (!ed.quit && !deadly) {
      // A handler may have run as the last write returned: redraw before waiting for keys.
      if (resized) draw();
      let b: Uint8Array;
      try {
        // Wait for keys in short slices: a resize that lands between the check
        // above and the wait is redrawn within one slice, not at the next key.
        if (!os.sys.poll([[0, POLLIN]], RESIZE_SLICE_MS).some(([, ev]) => ev & POLLIN)) continue;
        b = os.sys.read(0, 4096);
      } catch (e) {
        if (e instanceof SysError && e.errno === Errno.EINTR) {
          if (!deadly) draw();
          continue;
        }
        throw e;
      }
      if (b.byteLength === 0) {
        status = 1;
        ed.message = '';
        break;
      }
      for (const k of splitKeys(decoder.decode(b, { stream: true }))) {
        ed.key(k);
        if (ed.quit) break;
        if (ed.suspend) {
          ed.suspend = false;
          suspend();
        }
      }
      if (!ed.quit) draw();
    }
  } finally {
    os.sys.writeAll(1, '\x1b[?1049l');
    tcsetattr(os.sys, 0, saved);
  }
  if (deadly) {
    os.sys.writeAll(2, `${c.name}: Caught deadly signal ${deadly === SIGTERM ? 'TERM' : deadly === SIGHUP ? 'HUP' : 'INT'}\n`);
    return 128 + deadly;
  }
  if (status) os.sys.writeAll(2, `${c.name}: Error reading input, exiting...\n`);
  return status;
});

export default function main(os: AgentosApi): void {
  const name = os.argv[0].slice(os.argv[0].lastIndexOf('/') + 1) === 'edit' ? 'edit' : 'vi';
  os.exit(editor(name)(os, os.argv.slice(1)));
}
