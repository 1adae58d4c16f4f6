// Myers' O(ND) difference algorithm ("An O(ND) Difference Algorithm and its
// Variations", 1986, section 4.2: the linear-space middle-snake recursion),
// with the two cut-offs GNU diff applies so its choices — and therefore its
// hunks — are reproduced: a search costlier than `tooExpensive` settles for
// the furthest-reaching diagonals, and under --speed-large-files a diagonal
// that ends in a long snake after much progress is taken early.
//
// Inputs are vectors of equivalence-class numbers; results are written as
// flags into `deleted` (per x index) and `inserted` (per y index).

const SNAKE_LIMIT = 20;
const OFFSET_MAX = 0x3fffffff;

interface Split {
  xmid: number;
  ymid: number;
  loMinimal: boolean;
  hiMinimal: boolean;
}

export class Myers {
  private readonly fd: Int32Array;
  private readonly bd: Int32Array;
  /** fd/bd are indexed by diagonal k = x - y, which ranges over [-ylen-1, xlen+1]. */
  private readonly bias: number;
  private readonly tooExpensive: number;

  constructor(
    private readonly xv: Int32Array,
    private readonly yv: Int32Array,
    readonly deleted: Uint8Array,
    readonly inserted: Uint8Array,
    private readonly heuristic: boolean,
  ) {
    const diags = xv.length + yv.length + 3;
    this.fd = new Int32Array(diags);
    this.bd = new Int32Array(diags);
    this.bias = yv.length + 1;
    // Roughly the square root of the input size, at least 4096 (GNU's bound).
    let te = 1;
    for (let d = diags; d !== 0; d = Math.floor(d / 4)) te *= 2;
    this.tooExpensive = Math.max(4096, te);
  }

  run(minimal: boolean): void {
    this.compare(0, this.xv.length, 0, this.yv.length, minimal);
  }

  private compare(xoff: number, xlim: number, yoff: number, ylim: number, minimal: boolean): void {
    const { xv, yv } = this;
    while (xoff < xlim && yoff < ylim && xv[xoff] === yv[yoff]) {
      xoff++;
      yoff++;
    }
    while (xoff < xlim && yoff < ylim && xv[xlim - 1] === yv[ylim - 1]) {
      xlim--;
      ylim--;
    }
    if (xoff === xlim) {
      for (let y = yoff; y < ylim; y++) this.inserted[y] = 1;
    } else if (yoff === ylim) {
      for (let x = xoff; x < xlim; x++) this.deleted[x] = 1;
    } else {
      const s = this.middle(xoff, xlim, yoff, ylim, minimal);
      this.compare(xoff, s.xmid, yoff, s.ymid, s.loMinimal);
      this.compare(s.xmid, xlim, s.ymid, ylim, s.hiMinimal);
    }
  }

  /** The midpoint of a shortest edit script between the two (trimmed) ranges. */
  private middle(xoff: number, xlim: number, yoff: number, ylim: number, minimal: boolean): Split {
    const { xv, yv, fd, bd, bias: o } = this;
    const dmin = xoff - ylim;
    const dmax = xlim - yoff;
    const fmid = xoff - yoff;
    const bmid = xlim - ylim;
    let fmin = fmid;
    let fmax = fmid;
    let bmin = bmid;
    let bmax = bmid;
    const odd = ((fmid - bmid) & 1) !== 0;
    fd[o + fmid] = xoff;
    bd[o + bmid] = xlim;
    for (let c = 1; ; c++) {
      let bigSnake = false;
      // Forward: one more edit on each diagonal.
      if (fmin > dmin) fd[o + --fmin - 1] = -1;
      else fmin++;
      if (fmax < dmax) fd[o + ++fmax + 1] = -1;
      else fmax--;
      for (let d = fmax; d >= fmin; d -= 2) {
        const tlo = fd[o + d - 1];
        const thi = fd[o + d + 1];
        const x0 = tlo < thi ? thi : tlo + 1;
        let x = x0;
        let y = x0 - d;
        while (x < xlim && y < ylim && xv[x] === yv[y]) {
          x++;
          y++;
        }
        if (x - x0 > SNAKE_LIMIT) bigSnake = true;
        fd[o + d] = x;
        if (odd && bmin <= d && d <= bmax && bd[o + d] <= x) return { xmid: x, ymid: y, loMinimal: true, hiMinimal: true };
      }
      // Backward likewise.
      if (bmin > dmin) bd[o + --bmin - 1] = OFFSET_MAX;
      else bmin++;
      if (bmax < dmax) bd[o + ++bmax + 1] = OFFSET_MAX;
      else bmax--;
      for (let d = bmax; d >= bmin; d -= 2) {
        const tlo = bd[o + d - 1];
        const thi = bd[o + d + 1];
        const x0 = tlo < thi ? tlo : thi - 1;
        let x = x0;
        let y = x0 - d;
        while (xoff < x && yoff < y && xv[x - 1] === yv[y - 1]) {
          x--;
          y--;
        }
        if (x0 - x > SNAKE_LIMIT) bigSnake = true;
        bd[o + d] = x;
        if (!odd && fmin <= d && d <= fmax && x <= fd[o + d]) return { xmid: x, ymid: y, loMinimal: true, hiMinimal: true };
      }
      if (minimal) continue;
      if (this.heuristic && c > 200 && bigSnake) {
        const s = this.progress(c, xoff, xlim, yoff, ylim, fmin, fmax, bmin, bmax, fmid, bmid);
        if (s) return s;
      }
      if (c >= this.tooExpensive) return this.giveUp(xoff, xlim, yoff, ylim, fmin, fmax, bmin, bmax);
    }
  }

  /** --speed-large-files: a diagonal far ahead of its cost that ends in a long snake. */
  private progress(
    c: number, xoff: number, xlim: number, yoff: number, ylim: number,
    fmin: number, fmax: number, bmin: number, bmax: number, fmid: number, bmid: number,
  ): Split | null {
    const { xv, yv, fd, bd, bias: o } = this;
    let best = 0;
    let found: Split | null = null;
    for (let d = fmax; d >= fmin; d -= 2) {
      const dd = d - fmid;
      const x = fd[o + d];
      const y = x - d;
      const v = (x - xoff) * 2 - dd;
      if (v > 12 * (c + Math.abs(dd)) && v > best && xoff + SNAKE_LIMIT <= x && x < xlim && yoff + SNAKE_LIMIT <= y && y < ylim) {
        for (let k = 1; xv[x - k] === yv[y - k]; k++) {
          if (k === SNAKE_LIMIT) {
            best = v;
            found = { xmid: x, ymid: y, loMinimal: true, hiMinimal: false };
            break;
          }
        }
      }
    }
    if (found) return found;
    best = 0;
    for (let d = bmax; d >= bmin; d -= 2) {
      const dd = d - bmid;
      const x = bd[o + d];
      const y = x - d;
      const v = (xlim - x) * 2 + dd;
      if (v > 12 * (c + Math.abs(dd)) && v > best && xoff < x && x <= xlim - SNAKE_LIMIT && yoff < y && y <= ylim - SNAKE_LIMIT) {
        for (let k = 0; xv[x + k] === yv[y + k]; k++) {
          if (k === SNAKE_LIMIT - 1) {
            best = v;
            found = { xmid: x, ymid: y, loMinimal: false, hiMinimal: true };
            break;
          }
        }
      }
    }
    return found;
  }

  /** Too costly: split at whichever search got furthest. */
  private giveUp(xoff: number, xlim: number, yoff: number, ylim: number, fmin: number, fmax: number, bmin: number, bmax: number): Split {
    const { fd, bd, bias: o } = this;
    let fxybest = -1;
    let fxbest = 0;
    for (let d = fmax; d >= fmin; d -= 2) {
      let x = Math.min(fd[o + d], xlim);
      let y = x - d;
      if (ylim < y) {
        x = ylim + d;
        y = ylim;
      }
      if (fxybest < x + y) {
        fxybest = x + y;
        fxbest = x;
      }
    }
    let bxybest = OFFSET_MAX;
    let bxbest = 0;
    for (let d = bmax; d >= bmin; d -= 2) {
      let x = Math.max(xoff, bd[o + d]);
      let y = x - d;
      if (y < yoff) {
        x = yoff + d;
        y = yoff;
      }
      if (x + y < bxybest) {
        bxybest = x + y;
        bxbest = x;
      }
    }
    if (xlim + ylim - bxybest < fxybest - (xoff + yoff)) return { xmid: fxbest, ymid: fxybest - fxbest, loMinimal: true, hiMinimal: false };
    return { xmid: bxbest, ymid: bxybest - bxbest, loMinimal: false, hiMinimal: true };
  }
}
