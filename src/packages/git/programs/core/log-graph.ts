// The text-based history graph of `git log --graph`: the branch lines drawn
// left of each commit. A state machine fed one commit at a time in
// topological order; each call of nextLine() gives one row. Columns hold the
// commits still expected below; `mapping` says, for each screen position of
// the row being drawn, which new column that line is heading to, so lines
// that change column are drawn as '/', '\' and '_' over several rows
// ("collapsing"). The rows match git's for the same history, byte for byte
// (without colour).

import type { Commit } from './objects.js';

type State = 'padding' | 'skip' | 'pre-commit' | 'commit' | 'post-merge' | 'collapsing';

const MERGE_CHARS = ['/', '|', '\\'];

export class LogGraph {
  private columns: string[] = [];
  private newColumns: string[] = [];
  /** Screen position → new column index (-1: nothing there), for the row being drawn. */
  private mapping: number[] = [];
  private oldMapping: number[] = [];
  private mappingSize = 0;
  private commit: Commit | null = null;
  /** The commit's parents that are shown (or would be, past a count limit). */
  private parents: string[] = [];
  private width = 0;
  private expansionRow = 0;
  private state: State = 'padding';
  private prevState: State = 'padding';
  private commitIndex = 0;
  private prevCommitIndex = 0;
  /** Where a merge's first parent goes: 0 left-skewed, 1 straight below, 2 right (-1: not chosen yet). */
  private mergeLayout = 0;
  private edgesAdded = 0;
  private prevEdgesAdded = 0;

  /** `interesting`: whether a parent is drawn (it is listed and passes the filters). */
  constructor(
    private readonly interesting: (oid: string) => boolean,
    private readonly firstParent = false,
  ) {}

  /** The next commit to draw. */
  update(c: Commit): void {
    this.commit = c;
    const ps = (this.firstParent ? c.parents.slice(0, 1) : c.parents).filter((p) => this.interesting(p));
    this.parents = ps;
    this.prevCommitIndex = this.commitIndex;
    this.updateColumns();
    this.expansionRow = 0;
    // Set without touching prevState: no row of the old state was drawn.
    if (this.state !== 'padding') this.state = 'skip';
    else this.state = this.needsPreCommitLine() ? 'pre-commit' : 'commit';
  }

  /** Whether the commit's rows are all drawn (what is left is padding). */
  finished(): boolean {
    return this.state === 'padding';
  }

  /** The next row, and whether it is the commit's own row. */
  nextLine(): { text: string; commitLine: boolean } {
    let text = '';
    let commitLine = false;
    switch (this.state) {
      case 'padding':
        for (let i = 0; i < this.newColumns.length; i++) text += '| ';
        break;
      case 'skip':
        text = '...';
        this.setState(this.needsPreCommitLine() ? 'pre-commit' : 'commit');
        break;
      case 'pre-commit':
        text = this.preCommitLine();
        break;
      case 'commit':
        text = this.commitLine();
        commitLine = true;
        break;
      case 'post-merge':
        text = this.postMergeLine();
        break;
      case 'collapsing':
        text = this.collapsingLine();
        break;
    }
    return { text: this.pad(text), commitLine };
  }

  /** A row of vertical lines only, never the commit's row: before a commit, between entries. */
  paddingLine(): string {
    if (this.state !== 'commit') return this.nextLine().text;
    let text = '';
    for (const col of this.columns) {
      text += '|';
      text += col === this.commit!.oid && this.parents.length > 2 ? ' '.repeat((this.parents.length - 2) * 2) : ' ';
    }
    this.prevState = 'padding';
    return this.pad(text);
  }

  private pad(text: string): string {
    return text.length < this.width ? text + ' '.repeat(this.width - text.length) : text;
  }

  private setState(s: State): void {
    this.prevState = this.state;
    this.state = s;
  }

  private expansionRows(): number {
    return (this.parents.length - 2) * 2;
  }

  private needsPreCommitLine(): boolean {
    return this.parents.length >= 3 && this.commitIndex < this.columns.length - 1 && this.expansionRow < this.expansionRows();
  }

  private updateColumns(): void {
    this.columns = this.newColumns;
    this.newColumns = [];
    const max = this.columns.length + this.parents.length;
    this.mappingSize = 2 * max;
    this.mapping = new Array<number>(this.mappingSize).fill(-1);
    this.width = 0;
    this.prevEdgesAdded = this.edgesAdded;
    this.edgesAdded = 0;
    const oid = this.commit!.oid;
    for (const [i, col] of this.slots()) {
      if (col === oid) {
        this.commitIndex = i;
        this.mergeLayout = -1;
        for (const p of this.parents) this.insert(p, i);
        // The commit takes two places even without parents.
        if (this.parents.length === 0) this.width += 2;
      } else this.insert(col, -1);
    }
    while (this.mappingSize > 1 && this.mapping[this.mappingSize - 1] < 0) this.mappingSize--;
  }

  private insert(oid: string, idx: number): void {
    let i = this.newColumns.indexOf(oid);
    if (i < 0) {
      i = this.newColumns.length;
      this.newColumns.push(oid);
    }
    let at: number;
    if (this.parents.length > 1 && idx > -1 && this.mergeLayout === -1) {
      // A merge's first parent: skew the merge left when it sits left of the commit.
      const dist = idx - i;
      const shift = dist > 1 ? 2 * dist - 3 : 1;
      this.mergeLayout = dist > 0 ? 0 : 1;
      this.edgesAdded = this.parents.length + this.mergeLayout - 2;
      at = this.width + (this.mergeLayout - 1) * shift;
      this.width += 2 * this.mergeLayout;
    } else if (this.edgesAdded > 0 && i === this.mapping[this.width - 2]) {
      // An added edge meets the column just left of it: join them at once.
      at = this.width - 2;
      this.edgesAdded = -1;
    } else {
      at = this.width;
      this.width += 2;
    }
    this.mapping[at] = i;
  }

  /** The columns with their indexes, then the commit in a column of its own when no column holds it (no child drawn yet). */
  private *slots(): Generator<[number, string]> {
    const oid = this.commit!.oid;
    for (let i = 0; i < this.columns.length; i++) yield [i, this.columns[i]];
    if (!this.columns.includes(oid)) yield [this.columns.length, oid];
  }

  private mappingCorrect(): boolean {
    for (let i = 0; i < this.mappingSize; i++) {
      const t = this.mapping[i];
      if (t >= 0 && t !== Math.floor(i / 2)) return false;
    }
    return true;
  }

  private preCommitLine(): string {
    let text = '';
    let seen = false;
    for (let i = 0; i < this.columns.length; i++) {
      const col = this.columns[i];
      if (col === this.commit!.oid) {
        seen = true;
        text += '|' + ' '.repeat(this.expansionRow);
      } else if (seen && this.expansionRow === 0) {
        text += this.prevState === 'post-merge' && this.prevCommitIndex < i ? '\\' : '|';
      } else if (seen) text += '\\';
      else text += '|';
      text += ' ';
    }
    this.expansionRow++;
    if (!this.needsPreCommitLine()) this.setState('commit');
    return text;
  }

  private commitLine(): string {
    let text = '';
    let seen = false;
    const oid = this.commit!.oid;
    for (const [i, col] of this.slots()) {
      if (col === oid) {
        seen = true;
        text += '*';
        if (this.parents.length > 2) text += this.octopusDashes();
      } else if (seen && this.edgesAdded > 1) text += '\\';
      else if (seen && this.edgesAdded === 1) {
        // Continue a '\' the previous merge's last row drew into this column.
        text += this.prevState === 'post-merge' && this.prevEdgesAdded > 0 && this.prevCommitIndex < i ? '\\' : '|';
      } else if (this.prevState === 'collapsing' && this.oldMapping[2 * i + 1] === i && this.mapping[2 * i] < i) text += '/';
      else text += '|';
      text += ' ';
    }
    if (this.parents.length > 1) this.setState('post-merge');
    else this.setState(this.mappingCorrect() ? 'padding' : 'collapsing');
    return text;
  }

  /** "-." after an octopus merge's '*', reaching toward its extra parents. */
  private octopusDashes(): string {
    const dashed = this.parents.length + this.mergeLayout - 3;
    let s = '';
    for (let i = 0; i < dashed; i++) s += i === dashed - 1 ? '-.' : '--';
    return s;
  }

  private postMergeLine(): string {
    let text = '';
    let seen = false;
    let parentCol = false;
    const oid = this.commit!.oid;
    const first = this.parents[0];
    for (const [i, col] of this.slots()) {
      if (col === oid) {
        seen = true;
        let idx = this.mergeLayout;
        for (let j = 0; j < this.parents.length; j++) {
          text += MERGE_CHARS[idx];
          if (idx === 2) {
            if (this.edgesAdded > 0 || j < this.parents.length - 1) text += ' ';
          } else idx++;
        }
        if (this.edgesAdded === 0) text += ' ';
      } else if (seen) {
        text += this.edgesAdded > 0 ? '\\ ' : '| ';
      } else {
        text += '|';
        if (this.mergeLayout !== 0 || i !== this.commitIndex - 1) text += parentCol ? '_' : ' ';
      }
      if (col === first) parentCol = true;
    }
    this.setState(this.mappingCorrect() ? 'padding' : 'collapsing');
    return text;
  }

  private collapsingLine(): string {
    let horizontalEdge = -1;
    let horizontalTarget = -1;
    let usedHorizontal = false;
    [this.mapping, this.oldMapping] = [this.oldMapping, this.mapping];
    this.mapping = new Array<number>(Math.max(this.mappingSize, this.mapping.length)).fill(-1);
    for (let i = 0; i < this.mappingSize; i++) {
      const target = this.oldMapping[i];
      if (target < 0) continue;
      // Lines only ever move left, one place per row.
      if (target * 2 === i) this.mapping[i] = target;
      else if (this.mapping[i - 1] < 0) {
        this.mapping[i - 1] = target;
        if (horizontalEdge === -1) {
          horizontalEdge = i;
          horizontalTarget = target;
          for (let j = target * 2 + 3; j < i - 2; j += 2) this.mapping[j] = target;
        }
      } else if (this.mapping[i - 1] === target) {
        // Joins the line on its left, bound for the same parent.
      } else {
        // Crosses the line on its left.
        this.mapping[i - 2] = target;
        if (horizontalEdge === -1) {
          horizontalTarget = target;
          horizontalEdge = i - 1;
          for (let j = target * 2 + 3; j < i - 2; j += 2) this.mapping[j] = target;
        }
      }
    }
    this.oldMapping = this.mapping.slice();
    if (this.mapping[this.mappingSize - 1] < 0) this.mappingSize--;
    let text = '';
    for (let i = 0; i < this.mappingSize; i++) {
      const target = this.mapping[i];
      if (target < 0) text += ' ';
      else if (target * 2 === i) text += '|';
      else if (target === horizontalTarget && i !== horizontalEdge - 1) {
        // Only the first segment of a horizontal run continues into the next row.
        if (i !== target * 2 + 3) this.mapping[i] = -1;
        usedHorizontal = true;
        text += '_';
      } else {
        if (usedHorizontal && i < horizontalEdge) this.mapping[i] = -1;
        text += '/';
      }
    }
    if (this.mappingCorrect()) this.setState('padding');
    return text;
  }
}
