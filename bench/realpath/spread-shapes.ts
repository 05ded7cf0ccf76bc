import { spawnSync } from 'node:child_process';

/**
 * `npx tsx bench/realpath/spread-shapes.ts`: which ways of building one object from another
 * outlive the young generation on this node. Each shape runs alone in a child under
 * `--trace-gc-nvp` for 2 s, making objects as fast as it can and keeping the last 2,000 (so each
 * dies young); printed: objects made a second and bytes moved into the old space per 1,000 made.
 * A diagnostic behind docs/turns-and-capacity.md ("No spread first, then more, on a reply's path").
 */
const base = { id: 'run', workspaceId: 'w', status: 'queued', rows: [1, 2], card: { seq: 1 } };
const extra = { seq: 2, at: 3 };

const SHAPES: Record<string, (i: number) => object> = {
  'a literal': (i) => ({ id: 'run', workspaceId: 'w', status: 'queued', rows: [1, 2], card: { seq: i } }),
  '{ ...a }': () => ({ ...base }),
  '{ ...a, x } (x new)': (i) => ({ ...base, i }),
  "{ ...a, x } (x one of a's)": (i) => ({ ...base, status: String(i) }),
  '{ ...a, ...b }': () => ({ ...base, ...extra }),
  '{ ...a } then .x =': (i) => {
    const copy: Record<string, unknown> = { ...base };
    copy.i = i;
    return copy;
  },
  '{ x, ...a }': (i) => ({ i, ...base }),
  '{ x, ...a, y }': (i) => ({ i, ...base, y: 1 }),
  'Object.assign({}, a, { x })': (i) => Object.assign({}, base, { i }),
  'Object.assign({}, a, b)': () => Object.assign({}, base, extra),
};

const shape = process.argv[2];
if (shape !== undefined) {
  const make = SHAPES[shape];
  if (make === undefined) throw new Error(`no shape ${shape}`);
  const kept: object[] = new Array(2_000);
  let made = 0;
  const end = Date.now() + 2_000;
  const batch = () => {
    for (let k = 0; k < 5_000; k++) kept[made++ % kept.length] = make(made);
    if (Date.now() < end) setImmediate(batch);
    else process.stderr.write(`made=${made}\n`);
  };
  batch();
} else {
  process.stdout.write(`node ${process.version}\n`);
  for (const name of Object.keys(SHAPES)) {
    const child = spawnSync(process.execPath, ['--trace-gc-nvp', '--import', 'tsx', __filename, name], {
      encoding: 'utf8',
    });
    const promoted = [...child.stdout.matchAll(/promoted=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    const made = Number(/made=(\d+)/.exec(child.stderr)?.[1] ?? Number.NaN);
    const perSecond = (made / 2 / 1e6).toFixed(1);
    const perThousand = ((promoted / made) * 1000).toFixed(0);
    process.stdout.write(
      `${name.padEnd(30)} ${perSecond.padStart(6)} M objects/s ${perThousand.padStart(8)} bytes moved per 1,000\n`,
    );
  }
}
