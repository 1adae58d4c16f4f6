// Writing trees: a flat path → (mode, oid) map becomes nested tree objects,
// entries in git's order (a directory sorts as if its name ended in '/').

import { EMPTY_TREE, type FlatTree, type Store } from './objects.js';

interface Dir {
  files: Map<string, { mode: number; oid: string }>;
  dirs: Map<string, Dir>;
}

const enc = new TextEncoder();
const sortKey = (name: string, isDir: boolean) => (isDir ? `${name}/` : name);

/** A tree object's content: `<mode> <name>\0<20-byte id>` per entry. */
function serialize(entries: { mode: number; name: string; oid: string }[]): Uint8Array {
  const parts = entries.map((e) => {
    const head = enc.encode(`${e.mode.toString(8)} ${e.name}\0`);
    const b = new Uint8Array(head.byteLength + 20);
    b.set(head);
    for (let k = 0; k < 20; k++) b[head.byteLength + k] = parseInt(e.oid.slice(2 * k, 2 * k + 2), 16);
    return b;
  });
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.byteLength;
  }
  return out;
}

export async function writeTree(store: Store, flat: FlatTree): Promise<string> {
  const root: Dir = { files: new Map(), dirs: new Map() };
  for (const [path, item] of flat) {
    const parts = path.split('/');
    let d = root;
    for (const part of parts.slice(0, -1)) {
      let next = d.dirs.get(part);
      if (!next) d.dirs.set(part, (next = { files: new Map(), dirs: new Map() }));
      d = next;
    }
    d.files.set(parts[parts.length - 1], item);
  }
  const write = async (d: Dir): Promise<string> => {
    const entries: { mode: number; name: string; oid: string; dir: boolean }[] = [];
    for (const [name, sub] of d.dirs) entries.push({ mode: 0o040000, name, oid: await write(sub), dir: true });
    for (const [name, f] of d.files) entries.push({ mode: f.mode, name, oid: f.oid, dir: false });
    entries.sort((a, b) => {
      const x = sortKey(a.name, a.dir);
      const y = sortKey(b.name, b.dir);
      return x < y ? -1 : x > y ? 1 : 0;
    });
    return store.write('tree', serialize(entries));
  };
  const oid = await write(root);
  return flat.size === 0 ? EMPTY_TREE : oid;
}
