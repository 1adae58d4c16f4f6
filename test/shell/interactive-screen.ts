// A minimal terminal screen for tests: enough of xterm (printing with
// deferred wrap, CR, LF, BS, CUU/CUD/CUF/CUB, EL, ED, CUP home, clear) to read
// what a person would see after the line editor's redraws.

export class Screen {
  lines: string[][] = [[]];
  row = 0;
  col = 0;
  private pendingWrap = false;

  constructor(public cols = 80) {}

  write(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '\x1b') {
        const m = /^\[([\d;?]*)([A-Za-z])/.exec(text.slice(i + 1));
        if (!m) continue;
        i += m[0].length;
        this.csi(m[1], m[2]);
      } else if (c === '\r') {
        this.col = 0;
        this.pendingWrap = false;
      } else if (c === '\n') {
        this.down();
        this.pendingWrap = false;
      } else if (c === '\b') {
        if (this.col > 0) this.col--;
        this.pendingWrap = false;
      } else if (c === '\x07') {
        continue;
      } else {
        if (this.pendingWrap) {
          this.col = 0;
          this.down();
          this.pendingWrap = false;
        }
        const line = this.line(this.row);
        while (line.length < this.col) line.push(' ');
        line[this.col] = c;
        if (this.col === this.cols - 1) this.pendingWrap = true;
        else this.col++;
      }
    }
  }

  private line(r: number): string[] {
    while (this.lines.length <= r) this.lines.push([]);
    return this.lines[r];
  }

  private down(): void {
    this.row++;
    this.line(this.row);
  }

  private csi(params: string, cmd: string): void {
    const n = Number(params.split(';')[0]) || 1;
    this.pendingWrap = false;
    switch (cmd) {
      case 'A': this.row = Math.max(0, this.row - n); break;
      case 'B': this.row += n; this.line(this.row); break;
      case 'C': this.col = Math.min(this.cols - 1, this.col + n); break;
      case 'D': this.col = Math.max(0, this.col - n); break;
      case 'K': this.line(this.row).length = Math.min(this.line(this.row).length, this.col); break;
      case 'J':
        if (params === '2') {
          this.lines = [[]];
          this.row = 0;
          this.col = 0;
        } else {
          this.line(this.row).length = Math.min(this.line(this.row).length, this.col);
          this.lines.length = this.row + 1;
        }
        break;
      case 'H': this.row = 0; this.col = 0; break;
      default: break;
    }
  }

  /** The screen as text lines, trailing blanks trimmed. */
  text(): string[] {
    return this.lines.map((l) => l.join('').trimEnd());
  }

  /** The last non-empty line (where the prompt usually is). */
  lastLine(): string {
    const t = this.text();
    for (let i = t.length - 1; i >= 0; i--) if (t[i]) return t[i];
    return '';
  }
}
