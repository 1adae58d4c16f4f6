// The write workload of the crash tests (Node and Chromium) and the check of
// what a reopened layer holds. Exec i writes three file versions (3i, 3i+1,
// 3i+2; the last through a rename) of varying sizes, then records i in `last`.

export const FILES = 4;

/** Lines of version v: varies so files grow and shrink, written by several write() calls. */
const linesOf = (v: number) => 2000 + ((v * 7919) % 28000);

const contentOf = (v: number) => Array.from({ length: linesOf(v) }, (_, n) => `v${v} ${n + 1}`).join('\n') + '\n';

export function workloadCommand(i: number): string {
  const cmds = [0, 1, 2].map((k) => {
    const v = 3 * i + k;
    const gen = `awk 'BEGIN { for (n = 1; n <= ${linesOf(v)}; n++) print "v${v} " n }'`;
    const f = `f${v % FILES}`;
    return k === 2 ? `${gen} > tmp.$$ && mv tmp.$$ ${f}` : `${gen} > ${f}`;
  });
  return `${cmds.join(' && ')} && echo ${i} > last`;
}

/**
 * What is wrong with a reopened layer, given the last exec known to have
 * returned (`lastDone`): `read` gives a file of the workload directory, or null.
 * Returns the problems (empty = fine) and the exec the layer holds.
 */
export async function checkLayer(read: (name: string) => Promise<Uint8Array | null>, lastDone: number): Promise<{ problems: string[]; last: number }> {
  const problems: string[] = [];
  const dec = new TextDecoder();
  const lastBytes = await read('last');
  const last = lastBytes ? Number(dec.decode(lastBytes).trim()) : -1;
  if (last < lastDone) problems.push(`'last' is ${last} but exec ${lastDone} had returned`);
  // No upper bound: execs may still finish between reading `lastDone` and the kill or close.
  for (let k = 0; k < FILES; k++) {
    let durable = -1; // the newest version of f<k> written by execs 0..last
    for (let v = 3 * last + 2; v >= 0 && durable < 0; v--) if (v % FILES === k) durable = v;
    const bytes = await read(`f${k}`);
    if (!bytes) {
      if (durable >= 0) problems.push(`f${k} is missing (version ${durable} was durable)`);
      continue;
    }
    const text = dec.decode(bytes);
    const v = Number(/^v(\d+) /.exec(text)?.[1]);
    if (!(v % FILES === k)) problems.push(`f${k} holds version ${v} (${text.length} bytes: ${JSON.stringify(text.slice(0, 20))})`);
    else if (text !== contentOf(v)) problems.push(`f${k} (version ${v}, ${text.length} bytes) is torn`);
    else if (v < durable) problems.push(`f${k} is version ${v}, older than the durable ${durable}`);
    else if (v > 3 * last + 5) problems.push(`f${k} is version ${v}, newer than any exec started`);
  }
  return { problems, last };
}
