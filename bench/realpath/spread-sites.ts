import { writeFileSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import ts from 'typescript';

/**
 * Preloaded (`--import`) into a bench child when `SUMMON_BENCH_SPREAD_SITES` names a folder:
 * every object literal of Summon's compiled code (`dist/src`) and of the libraries it loads
 * (`node_modules`, but for the TypeScript compiler this file uses) that opens with a spread and
 * goes on (`{ ...a, x }`, `{ ...a, ...b }`) is counted each time it runs, and the counts are written
 * to `<dir>/spread-<pid>.json` when the process exits (and every 2 s before). On Node 20 such an
 * object, given a property its source lacks, is slow to make and outlives every young-generation
 * collection (docs/turns-and-capacity.md, "No spread first, then more, on a reply's path");
 * `spread-sites-report.ts` prints the ones a reply runs. The code is instrumented as it is
 * loaded: nothing on disk changes.
 */
interface Site {
  file: string;
  line: number;
  text: string;
  count: number;
}

const dir = process.env.SUMMON_BENCH_SPREAD_SITES;
const COUNTER = '__summonSpreadSite';

if (dir) {
  const sites: Site[] = [];
  const sep = path.sep;
  const counted = (file: string) =>
    file.endsWith('.js') &&
    (file.includes(`${sep}dist${sep}src${sep}`) || file.includes(`${sep}node_modules${sep}`)) &&
    !file.includes(`${sep}node_modules${sep}typescript${sep}`) &&
    !file.includes(`${sep}node_modules${sep}tsx${sep}`);
  (globalThis as Record<string, unknown>)[COUNTER] = (id: number) => {
    const site = sites[id];
    if (site !== undefined) site.count++;
  };
  const loader = Module.prototype as unknown as {
    _compile(this: unknown, content: string, filename: string): unknown;
  };
  const compile = loader._compile;
  loader._compile = function (content: string, filename: string) {
    const instrumented = counted(filename) ? instrument(content, filename, sites) : content;
    return compile.call(this, instrumented, filename);
  };
  const write = () =>
    writeFileSync(
      path.join(dir, `spread-${process.pid}.json`),
      JSON.stringify(sites.filter((site) => site.count > 0)),
    );
  setInterval(write, 2_000).unref();
  process.once('exit', write);
}

/** The file's source with each such literal `L` as `(globalThis.__summonSpreadSite(id), L)`. */
function instrument(content: string, filename: string, sites: Site[]): string {
  const source = ts.createSourceFile(filename, content, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const inserts: { at: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isObjectLiteralExpression(node) &&
      node.properties.length > 1 &&
      node.properties[0] !== undefined &&
      ts.isSpreadAssignment(node.properties[0])
    ) {
      const start = node.getStart(source);
      const id = sites.length;
      sites.push({
        file: path.relative(process.cwd(), filename),
        line: source.getLineAndCharacterOfPosition(start).line + 1,
        text: node.getText(source).replace(/\s+/g, ' ').slice(0, 100),
        count: 0,
      });
      inserts.push({ at: start, text: `(globalThis.${COUNTER}(${id}), ` }, { at: node.getEnd(), text: ')' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // From the end, so the offsets before each insert hold (no two literals share an offset).
  inserts.sort((a, b) => b.at - a.at);
  let out = content;
  for (const insert of inserts) out = out.slice(0, insert.at) + insert.text + out.slice(insert.at);
  return out;
}
