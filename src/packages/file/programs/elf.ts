// ELF headers described as libmagic does: class, byte order, type (with
// "pie executable" from DF_1_PIE), machine, version and OS ABI; then, from
// the program and section headers, linking, interpreter, build ID, ABI tag
// and whether symbols were stripped.

/** Read `len` bytes at `off` (fewer at the end of the file). */
export type Reader = (off: number, len: number) => Uint8Array;

const MACHINES: Record<number, string> = {
  0: 'no machine', 2: 'SPARC', 3: 'Intel 80386', 8: 'MIPS', 20: 'PowerPC', 21: '64-bit PowerPC or cisco 7500',
  22: 'IBM S/390', 40: 'ARM', 43: 'SPARC V9', 62: 'x86-64', 183: 'ARM aarch64', 243: 'UCB RISC-V', 247: 'eBPF',
};
const OSABI: Record<number, string> = {
  0: 'SYSV', 1: 'HP-UX', 2: 'NetBSD', 3: 'GNU/Linux', 6: 'Solaris', 7: 'AIX', 8: 'IRIX', 9: 'FreeBSD', 12: 'OpenBSD',
  97: 'ARM', 255: 'embedded',
};
const ABI_OS: Record<number, string> = { 0: 'GNU/Linux', 1: 'GNU/Hurd', 2: 'Solaris', 3: 'kFreeBSD', 4: 'kNetBSD' };

const PT_DYNAMIC = 2, PT_INTERP = 3, PT_NOTE = 4;
const SHT_SYMTAB = 2, SHT_NOTE = 7;
const DT_FLAGS_1 = 0x6ffffffb, DF_1_PIE = 0x08000000;
const NT_GNU_ABI_TAG = 1, NT_GNU_BUILD_ID = 3;

export interface Elf {
  desc: string;
  mime: string;
}

export function describeElf(head: Uint8Array, read: Reader): Elf {
  let name = 'ELF';
  const cls = head[4];
  const data = head[5];
  if (head.length > 4) name += cls === 1 ? ' 32-bit' : cls === 2 ? ' 64-bit' : ' invalid class';
  if (head.length > 5) name += data === 1 ? ' LSB' : data === 2 ? ' MSB' : ' invalid byte order';
  if (head.length < 20 || (cls !== 1 && cls !== 2) || (data !== 1 && data !== 2)) return { desc: name, mime: 'application/octet-stream' };
  const le = data === 1;
  const b64 = cls === 2;
  const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
  const u16 = (b: Uint8Array, o: number) => view(b).getUint16(o, le);
  const u32 = (b: Uint8Array, o: number) => view(b).getUint32(o, le);
  const word = (b: Uint8Array, o: number) => (b64 ? Number(view(b).getBigUint64(o, le)) : u32(b, o));
  const type = u16(head, 16);
  const machine = head.length >= 20 ? u16(head, 18) : -1;
  const ehdr = read(0, b64 ? 64 : 52);
  const full = ehdr.length >= (b64 ? 64 : 52);

  const phoff = full ? word(ehdr, b64 ? 32 : 28) : 0;
  const shoff = full ? word(ehdr, b64 ? 40 : 32) : 0;
  const phentsize = full ? u16(ehdr, b64 ? 54 : 42) : 0;
  const phnum = full ? u16(ehdr, b64 ? 56 : 44) : 0;
  const shentsize = full ? u16(ehdr, b64 ? 58 : 46) : 0;
  const shnum = full ? u16(ehdr, b64 ? 60 : 48) : 0;
  const shstrndx = full ? u16(ehdr, b64 ? 62 : 50) : 0;

  let dynamic = false;
  let pie = false;
  let interp: string | null = null;
  const notes: string[] = [];
  const readNotes = (off: number, size: number) => {
    const b = read(off, Math.min(size, 1 << 16));
    for (let p = 0; p + 12 <= b.length; ) {
      const namesz = u32(b, p);
      const descsz = u32(b, p + 4);
      const ntype = u32(b, p + 8);
      const name = String.fromCharCode(...b.subarray(p + 12, p + 12 + Math.max(0, namesz - 1)));
      const descOff = p + 12 + ((namesz + 3) & ~3);
      const desc = b.subarray(descOff, descOff + descsz);
      if (name === 'GNU' && ntype === NT_GNU_BUILD_ID && desc.length) {
        const kind = desc.length === 20 ? 'sha1' : desc.length === 16 ? 'md5/uuid' : desc.length === 8 ? 'xxHash' : 'unknown';
        notes.push(`BuildID[${kind}]=${Array.from(desc, (x) => x.toString(16).padStart(2, '0')).join('')}`);
      } else if (name === 'GNU' && ntype === NT_GNU_ABI_TAG && desc.length >= 16) {
        notes.push(`for ${ABI_OS[u32(desc, 0)] ?? 'unknown'} ${u32(desc, 4)}.${u32(desc, 8)}.${u32(desc, 12)}`);
      }
      p = descOff + ((descsz + 3) & ~3);
    }
  };

  if (phoff && phnum && phentsize >= (b64 ? 56 : 32)) {
    for (let i = 0; i < phnum; i++) {
      const ph = read(phoff + i * phentsize, phentsize);
      if (ph.length < phentsize) break;
      const ptype = u32(ph, 0);
      const off = b64 ? word(ph, 8) : u32(ph, 4);
      const filesz = b64 ? word(ph, 32) : u32(ph, 16);
      if (ptype === PT_INTERP) interp = String.fromCharCode(...read(off, Math.min(filesz, 4096))).replace(/\0.*$/s, '');
      else if (ptype === PT_NOTE) readNotes(off, filesz);
      else if (ptype === PT_DYNAMIC) {
        dynamic = true;
        const entry = b64 ? 16 : 8;
        const dyn = read(off, Math.min(filesz, 1 << 16));
        for (let p = 0; p + entry <= dyn.length; p += entry) {
          const tag = word(dyn, p);
          if (tag === 0) break;
          if (tag === DT_FLAGS_1 && word(dyn, p + entry / 2) & DF_1_PIE) pie = true;
        }
      }
    }
  }

  let stripped: string | null = null;
  if (shoff && shnum && shentsize >= (b64 ? 64 : 40)) {
    let symtab = false;
    let debug = false;
    const sh = (i: number) => read(shoff + i * shentsize, shentsize);
    const strtab = shstrndx < shnum ? sh(shstrndx) : null;
    const names = strtab && strtab.length === shentsize ? read(word(strtab, b64 ? 24 : 16), Math.min(word(strtab, b64 ? 32 : 20), 1 << 16)) : null;
    for (let i = 0; i < shnum; i++) {
      const s = sh(i);
      if (s.length < shentsize) break;
      const stype = u32(s, 4);
      if (stype === SHT_SYMTAB) symtab = true;
      if (stype === SHT_NOTE && phnum === 0) readNotes(word(s, b64 ? 24 : 16), word(s, b64 ? 32 : 20));
      if (names) {
        const at = u32(s, 0);
        const end = names.indexOf(0, at);
        if (String.fromCharCode(...names.subarray(at, end < 0 ? names.length : end)) === '.debug_info') debug = true;
      }
    }
    stripped = symtab ? (debug ? 'with debug_info, not stripped' : 'not stripped') : 'stripped';
  }

  const dyn = type === 3;
  const typeName = { 0: 'no file type', 1: 'relocatable', 2: 'executable', 3: pie ? 'pie executable' : 'shared object', 4: 'core file' }[type];
  let desc = `${name} ${typeName ?? `*unknown* type 0x${type.toString(16)}`}`;
  if (machine >= 0) desc += `, ${MACHINES[machine] ?? `*unknown arch 0x${machine.toString(16)}*`}`;
  desc += `, version ${head[6]}`;
  desc += ` (${OSABI[head[7]] ?? `unknown ${head[7]}`})`;
  // Linking is only told from program headers.
  if ((type === 2 || dyn) && phoff && phnum) desc += dynamic || interp ? ', dynamically linked' : ', statically linked';
  if (interp) desc += `, interpreter ${interp}`;
  for (const n of notes) desc += `, ${n}`;
  if (stripped) desc += `, ${stripped}`;
  const mime = type === 1 ? 'application/x-object'
    : type === 2 ? 'application/x-executable'
    : type === 4 ? 'application/x-coredump'
    : dyn ? (pie ? 'application/x-pie-executable' : 'application/x-sharedlib') : 'application/octet-stream';
  return { desc, mime };
}
