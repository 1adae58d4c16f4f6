// A full-screen terminal model for the vi tests: a grid of rows × columns
// with the sequences a screen editor sends (cursor position, erase in line
// and display, the alternate screen, cursor visibility), so a test reads
// what a person would see.

export class VScreen {
  grid: string[][] = [];
  row = 0;
  col = 0;
  private pendingWrap = false;

  constructor(
    public rows: number,
    public cols: number,
  ) {
    this.clear();
  }

  resize(rows: number, cols: number): void {
    this.rows = rows;
    this.cols = cols;
    this.clear();
  }

  private clear(): void {
    this.grid = Array.from({ length: this.rows }, () => Array<string>(this.cols).fill(' '));
  }

  write(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '\x1b') {
        const m = /^\[([\d;?]*)([A-Za-z])/.exec(text.slice(i + 1, i + 24));
        if (!m) continue;
        i += m[0].length;
        this.csi(m[1], m[2]);
      } else if (c === '\r') {
        this.col = 0;
        this.pendingWrap = false;
      } else if (c === '\n') {
        this.row = Math.min(this.rows - 1, this.row + 1);
        this.pendingWrap = false;
      } else if (c >= ' ') {
        if (this.pendingWrap) {
          this.col = 0;
          this.row = Math.min(this.rows - 1, this.row + 1);
          this.pendingWrap = false;
        }
        if (this.row < this.rows) this.grid[this.row][this.col] = c;
        if (this.col === this.cols - 1) this.pendingWrap = true;
        else this.col++;
      }
    }
  }

  private csi(params: string, cmd: string): void {
    const ps = params.replace('?', '').split(';').map((p) => Number(p) || 0);
    this.pendingWrap = false;
    switch (cmd) {
      case 'H':
        this.row = Math.min(this.rows - 1, Math.max(1, ps[0] || 1) - 1);
        this.col = Math.min(this.cols - 1, Math.max(1, ps[1] || 1) - 1);
        break;
      case 'K':
        for (let x = this.col; x < this.cols; x++) this.grid[this.row][x] = ' ';
        break;
      case 'J':
        if (ps[0] === 2) this.clear();
        break;
      case 'h':
      case 'l':
        if (params === '?1049') this.clear();
        break;
      default:
        break;
    }
  }

  text(): string[] {
    return this.grid.map((r) => r.join('').trimEnd());
  }

  /** The bottom line (messages, the command line, the ruler). */
  bottom(): string {
    return this.text()[this.rows - 1];
  }
}
