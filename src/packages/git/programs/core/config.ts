// git-config files: parse, query and edit in place (the text a user wrote is
// kept; only the lines of the variables touched change). Keys are
// `section[.subsection].name`: section and name case-insensitive, the
// subsection case-sensitive, as git has them.

export interface Entry {
  /** Normalised key: lowercased section and name. */
  key: string;
  /** null: a bare `name` line (boolean true). */
  value: string | null;
  /** Lines [first, last] the variable occupies (continuations included). */
  first: number;
  last: number;
}

interface Section {
  /** `section` or `section.subsection`, section lowercased. */
  id: string;
  line: number;
}

/** Split a key into section, subsection (or null) and name; null when malformed. */
export function splitKey(key: string): { section: string; sub: string | null; name: string } | null {
  const a = key.indexOf('.');
  const b = key.lastIndexOf('.');
  if (a <= 0 || b === key.length - 1) return null;
  const section = key.slice(0, a);
  const name = key.slice(b + 1);
  if (!/^[A-Za-z0-9.-]+$/.test(section) || !/^[A-Za-z][A-Za-z0-9-]*$/.test(name)) return null;
  return { section, sub: a === b ? null : key.slice(a + 1, b), name };
}

/** The canonical spelling of a key (git's: lowercased section and name). */
export function normKey(key: string): string | null {
  const k = splitKey(key);
  if (!k) return null;
  return k.sub === null ? `${k.section.toLowerCase()}.${k.name.toLowerCase()}` : `${k.section.toLowerCase()}.${k.sub}.${k.name.toLowerCase()}`;
}

const sectionId = (section: string, sub: string | null) => (sub === null ? section.toLowerCase() : `${section.toLowerCase()}.${sub}`);

export class ConfigError extends Error {}

export class ConfigFile {
  lines: string[];
  entries: Entry[] = [];
  sections: Section[] = [];

  constructor(text = '') {
    this.lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
    this.parse();
  }

  toString(): string {
    return this.lines.length ? this.lines.join('\n') + '\n' : '';
  }

  private parse(): void {
    this.entries = [];
    this.sections = [];
    let current: string | null = null;
    for (let i = 0; i < this.lines.length; i++) {
      const line = this.lines[i];
      const t = line.trimStart();
      if (t === '' || t[0] === '#' || t[0] === ';') continue;
      if (t[0] === '[') {
        const m = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$/.exec(t);
        if (!m) throw new ConfigError(`bad config line ${i + 1}`);
        let section = m[1];
        let sub: string | null = m[2] === undefined ? null : m[2].replace(/\\(.)/g, '$1');
        if (sub === null && section.includes('.')) {
          // [section.subsection]: the old syntax, subsection lowercased
          const d = section.indexOf('.');
          sub = section.slice(d + 1).toLowerCase();
          section = section.slice(0, d);
        }
        current = sectionId(section, sub);
        this.sections.push({ id: current, line: i });
        const rest = m[3].trim();
        if (rest === '' || rest[0] === '#' || rest[0] === ';') continue;
        // a variable on the header line: `[core] bare = false`
        const first = i;
        const { name, value, last } = this.variable(rest, i);
        this.entries.push({ key: `${current}.${name.toLowerCase()}`, value, first, last });
        i = last;
        continue;
      }
      if (current === null) throw new ConfigError(`bad config line ${i + 1}`);
      const first = i;
      const { name, value, last } = this.variable(t, i);
      this.entries.push({ key: `${current}.${name.toLowerCase()}`, value, first, last });
      i = last;
    }
  }

  /** Parse `name [= value]` starting on line i (continuations may follow). */
  private variable(text: string, i: number): { name: string; value: string | null; last: number } {
    const m = /^([A-Za-z][A-Za-z0-9-]*)\s*(=?)(.*)$/.exec(text);
    if (!m) throw new ConfigError(`bad config line ${i + 1}`);
    if (m[2] === '') {
      const rest = m[3].trim();
      if (rest !== '' && rest[0] !== '#' && rest[0] !== ';') throw new ConfigError(`bad config line ${i + 1}`);
      return { name: m[1], value: null, last: i };
    }
    let src = m[3];
    let last = i;
    let out = '';
    let pending = '';
    let quoted = false;
    let started = false;
    for (let k = 0; ; k++) {
      if (k >= src.length) {
        if (quoted) throw new ConfigError(`bad config line ${i + 1}`);
        break;
      }
      const c = src[k];
      if (c === '\\') {
        const n = src[k + 1];
        if (n === undefined) {
          // line continuation
          if (last + 1 >= this.lines.length) break;
          src = this.lines[++last];
          k = -1;
          continue;
        }
        const esc: Record<string, string> = { n: '\n', t: '\t', b: '\b', '"': '"', '\\': '\\' };
        if (!(n in esc)) throw new ConfigError(`bad config line ${i + 1}`);
        out += pending + esc[n];
        pending = '';
        started = true;
        k++;
        continue;
      }
      if (c === '"') {
        out += pending;
        pending = '';
        quoted = !quoted;
        started = true;
        continue;
      }
      if (!quoted && (c === '#' || c === ';')) break;
      if (!quoted && (c === ' ' || c === '\t')) {
        if (started) pending += c;
        continue;
      }
      out += pending + c;
      pending = '';
      started = true;
    }
    return { name: m[1], value: out, last };
  }

  get(key: string): string | null | undefined {
    let v: string | null | undefined;
    for (const e of this.entries) if (e.key === key) v = e.value;
    return v;
  }

  getAll(key: string): (string | null)[] {
    return this.entries.filter((e) => e.key === key).map((e) => e.value);
  }

  /**
   * Set `key` (as the user spelled it) to `value`: replaces the last
   * occurrence (or all matching `valueRe` with `all`), else adds it to the
   * last section of that name, else appends a new section.
   */
  set(key: string, value: string, opts: { add?: boolean; all?: boolean } = {}): void {
    const k = splitKey(key)!;
    const nk = normKey(key)!;
    const line = `\t${k.name} = ${formatValue(value)}`;
    const hits = this.entries.filter((e) => e.key === nk);
    if (!opts.add && hits.length) {
      const keep = hits[hits.length - 1];
      const drop = opts.all ? hits.slice(0, -1) : [];
      this.replace(keep.first, keep.last, [line]);
      for (const e of drop.reverse()) this.replace(e.first, e.last, []);
      this.parse();
      return;
    }
    const id = sectionId(k.section, k.sub);
    const secs = this.sections.filter((s) => s.id === id);
    if (secs.length) {
      const s = secs[secs.length - 1];
      const next = this.sections.find((x) => x.line > s.line);
      let at = next ? next.line : this.lines.length;
      // after the section's last non-blank line
      while (at > s.line + 1 && this.lines[at - 1].trim() === '') at--;
      this.lines.splice(at, 0, line);
    } else {
      const header = k.sub === null ? `[${k.section}]` : `[${k.section} "${k.sub.replace(/["\\]/g, '\\$&')}"]`;
      this.lines.push(header, line);
    }
    this.parse();
  }

  /** Remove the variables for `key` (the last one only unless `all`); how many went. */
  unset(key: string, all = false): number {
    const hits = this.entries.filter((e) => e.key === key);
    const drop = all ? hits : hits.slice(-1);
    for (const e of drop.reverse()) this.replace(e.first, e.last, []);
    this.parse();
    return drop.length;
  }

  /** Remove every section `id` with its variables; false when there was none. */
  removeSection(id: string): boolean {
    const secs = this.sections.filter((s) => s.id === id).reverse();
    for (const s of secs) {
      const next = this.sections.find((x) => x.line > s.line);
      this.lines.splice(s.line, (next ? next.line : this.lines.length) - s.line);
      this.parse();
    }
    return secs.length > 0;
  }

  /** Rename sections `from` to `to` (section[.subsection] spellings); false when there was none. */
  renameSection(from: string, to: string): boolean {
    const [fs, ...fsub] = from.split('.');
    const [ts, ...tsub] = to.split('.');
    const id = sectionId(fs, fsub.length ? fsub.join('.') : null);
    const header = tsub.length ? `[${ts} "${tsub.join('.').replace(/["\\]/g, '\\$&')}"]` : `[${ts}]`;
    const secs = this.sections.filter((s) => s.id === id);
    for (const s of secs) this.lines[s.line] = header;
    this.parse();
    return secs.length > 0;
  }

  private replace(first: number, last: number, lines: string[]): void {
    this.lines.splice(first, last - first + 1, ...lines);
  }
}

/** A value as git writes it: quoted when spaces at the ends or comment characters would be lost. */
export function formatValue(v: string): string {
  const esc = v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
  return /^\s|\s$|[#;]/.test(v) ? `"${esc}"` : esc;
}

/** git's boolean spellings; null when not a boolean. A bare key (null value) is true. */
export function parseBool(v: string | null): boolean | null {
  if (v === null) return true;
  const s = v.toLowerCase();
  if (s === 'true' || s === 'yes' || s === 'on' || s === '1') return true;
  if (s === 'false' || s === 'no' || s === 'off' || s === '0' || s === '') return false;
  return null;
}

/** Integers with git's k/m/g suffixes; null when malformed. */
export function parseInt10(v: string | null): number | null {
  if (v === null) return null;
  const m = /^\s*(-?\d+)([kmg]?)\s*$/i.exec(v);
  if (!m) return null;
  const mult = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase()] ?? 1;
  return Number(m[1]) * mult;
}
