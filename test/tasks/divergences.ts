// Reads DIVERGENCES.md: the table of corpus tasks known to differ from bash, per surface.

export type Surface = 'cli' | 'vm' | 'mcp';
export type Divergence = { task: string; surfaces: Surface[]; reason: string };

/** Rows of the first Markdown table whose first cell is a task name: `| task | surfaces | reason |`,
 *  surfaces being `all` or a comma-separated list of cli, vm, mcp. */
export function parseDivergences(markdown: string): Divergence[] {
  const rows: Divergence[] = [];
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length !== 3 || !/^`?\d{3}-/.test(cells[0]!)) continue;
    const task = cells[0]!.replace(/`/g, '');
    const surfaces = cells[1] === 'all' ? ['cli', 'vm', 'mcp'] : cells[1]!.split(',').map((s) => s.trim());
    rows.push({ task, surfaces: surfaces as Surface[], reason: cells[2]! });
  }
  return rows;
}
