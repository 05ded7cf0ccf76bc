import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `npx tsx bench/realpath/spread-sites-report.ts <dir> <replies>`: what `SUMMON_BENCH_SPREAD_SITES`
 * counted (`spread-sites.ts`), per process, each literal that opens with a spread and goes on,
 * with how often it ran a reply — the compiled file and line, and the literal's opening. Those
 * that ran less than once in ten replies (start-up, mostly) are only counted.
 */
interface Site {
  file: string;
  line: number;
  text: string;
  count: number;
}

const [dir, repliesText] = process.argv.slice(2);
const replies = Number(repliesText);
if (dir === undefined || !(replies > 0)) {
  process.stderr.write('usage: spread-sites-report.ts <dir> <replies>\n');
  process.exit(2);
}
for (const name of readdirSync(dir).filter((file) => /^spread-\d+\.json$/.test(file))) {
  const sites = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Site[];
  const often = sites.filter((site) => site.count / replies >= 0.1).sort((a, b) => b.count - a.count);
  const rare = sites.length - often.length;
  process.stdout.write(`${name}: ${often.length} ran once in ten replies or more, ${rare} less\n`);
  for (const site of often) {
    const perReply = (site.count / replies).toFixed(2);
    process.stdout.write(`${perReply.padStart(8)}/reply  ${site.file}:${site.line}  ${site.text}\n`);
  }
}
