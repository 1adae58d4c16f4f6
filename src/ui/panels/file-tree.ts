// The VM's files: one directory at a time (breadcrumb-free: a path box and
// "up"), directories first. Open a file to view or download it; upload with
// the button or drop files onto the panel (into the directory shown) or onto
// a directory row (into that directory).

import { DT_DIR, DT_LNK } from '../../abi/stat.js';
import type { AgentVM } from '../../host/browser/index.js';
import { el, humanSize } from '../dom.js';
import { download, viewFile } from './file-viewer.js';

const MAX_ENTRIES = 1000;

interface Entry {
  name: string;
  dir: boolean;
  link: boolean;
  size: number;
}

const join = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);

export class FileTree {
  readonly root: HTMLElement;
  private readonly pathBox = el('input', { type: 'text', className: 'path', ariaLabel: 'Directory', spellcheck: false });
  private readonly list = el('ul', { className: 'files', ariaLabel: 'Files' });
  private readonly message = el('p', { className: 'muted', role: 'status' });
  private readonly picker = el('input', { type: 'file', multiple: true, hidden: true });
  private cwd: string;
  private shown = '';

  constructor(private readonly vm: AgentVM, start = '/home/user') {
    this.cwd = start;
    const up = el('button', { className: 'small', textContent: '↑', title: 'Parent directory', ariaLabel: 'Parent directory' });
    const refresh = el('button', { className: 'small', textContent: '⟳', title: 'Refresh', ariaLabel: 'Refresh' });
    const upload = el('button', { className: 'small', textContent: 'Upload…' });
    up.addEventListener('click', () => void this.go(this.cwd.replace(/\/[^/]*$/, '') || '/'));
    refresh.addEventListener('click', () => void this.refresh());
    upload.addEventListener('click', () => this.picker.click());
    this.picker.addEventListener('change', () => void this.upload([...(this.picker.files ?? [])], this.cwd).then(() => (this.picker.value = '')));
    this.pathBox.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') void this.go(this.pathBox.value.trim() || '/');
    });
    this.root = el('section', { id: 'files', className: 'panel' },
      el('div', { className: 'row' }, up, this.pathBox, refresh, upload), this.list, this.message, this.picker);
    this.dropTarget(this.root, () => this.cwd);
  }

  get directory(): string {
    return this.cwd;
  }

  async go(dir: string): Promise<void> {
    this.cwd = dir;
    await this.refresh();
  }

  async refresh(): Promise<void> {
    const dir = this.cwd;
    this.pathBox.value = dir;
    let entries: Entry[];
    try {
      entries = await this.read(dir);
    } catch (e) {
      this.list.replaceChildren();
      this.message.textContent = `${dir}: ${(e as Error).message}`;
      return;
    }
    const key = JSON.stringify(entries) + dir;
    if (key === this.shown) return; // unchanged: keep focus and scroll
    this.shown = key;
    this.message.textContent = entries.length ? '' : 'Empty directory. Drop files here to upload them.';
    this.list.replaceChildren(...entries.map((e) => this.row(dir, e)));
  }

  private async read(dir: string): Promise<Entry[]> {
    // The user's view (hidden paths are not there, unreadable ones say so), like everything the panel does.
    const m = this.vm.vm.user;
    const names = (await m.readdir(dir)).filter((e) => e.name !== '.' && e.name !== '..').slice(0, MAX_ENTRIES);
    const entries = await Promise.all(names.map(async (d) => {
      const st = await m.stat(join(dir, d.name)).catch(() => null);
      const isDir = d.type === DT_DIR || (st !== null && (st.mode & 0o170000) === 0o040000);
      return { name: d.name, dir: isDir, link: d.type === DT_LNK, size: st?.size ?? 0 };
    }));
    return entries.sort((a, b) => Number(b.dir) - Number(a.dir) || a.name.localeCompare(b.name));
  }

  private row(dir: string, e: Entry): HTMLLIElement {
    const path = join(dir, e.name);
    const open = el('button', { className: `name ${e.dir ? 'dir' : 'file'}`, textContent: e.name + (e.dir ? '/' : ''), title: path });
    open.addEventListener('click', () => void (e.dir ? this.go(path) : this.open(path)));
    const li = el('li', { dataset: { name: e.name } }, open);
    if (e.dir) {
      this.dropTarget(li, () => path);
    } else {
      const save = el('button', { className: 'small icon', textContent: '⤓', title: `Download ${e.name}`, ariaLabel: `Download ${e.name}` });
      save.addEventListener('click', () => void this.vm.readFile(path).then((b) => download(e.name, b), (err: Error) => this.say(err.message)));
      li.append(el('span', { className: 'size' }, humanSize(e.size)), save);
    }
    return li;
  }

  private async open(path: string): Promise<void> {
    try {
      viewFile(path, await this.vm.readFile(path));
    } catch (e) {
      this.say(`${path}: ${(e as Error).message}`);
    }
  }

  /** Copy browser files into `dir` in the VM. */
  async upload(files: File[], dir: string): Promise<void> {
    for (const f of files) {
      try {
        await this.vm.writeFile(join(dir, f.name), new Uint8Array(await f.arrayBuffer()));
      } catch (e) {
        this.say(`${f.name}: ${(e as Error).message}`);
        return;
      }
    }
    this.say(`Uploaded ${files.length} file${files.length === 1 ? '' : 's'} to ${dir}.`);
    this.shown = '';
    await this.refresh();
  }

  /** Files dropped on `target` go to the directory `where()` names. */
  dropTarget(target: HTMLElement, where: () => string): void {
    target.addEventListener('dragover', (e) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      e.stopPropagation();
      target.classList.add('drop');
    });
    target.addEventListener('dragleave', () => target.classList.remove('drop'));
    target.addEventListener('drop', (e) => {
      target.classList.remove('drop');
      const files = [...(e.dataTransfer?.files ?? [])];
      if (!files.length) return;
      e.preventDefault();
      e.stopPropagation();
      void this.upload(files, where());
    });
  }

  private say(text: string): void {
    this.message.textContent = text;
  }
}
