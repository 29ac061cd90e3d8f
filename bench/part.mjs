// A part of make bench, as bench/part (Go) writes it: prints the part's
// section of docs/BENCHMARKS.md and, when $ROBOHORNETS_BENCH_OUT names a
// directory (make bench sets it), writes the part there as <name>.json for
// the report program (go run ./bench/report).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Prints the section and writes name.json. goals: rows of the summary,
 * { what, figure, goal, anchor, met }.
 */
export function writePart(name, { section, command, goals = [], body }) {
  console.log(`## ${section}\n\nCommand: \`${command}\`\n\n${body.trimEnd()}\n`);
  const dir = process.env.ROBOHORNETS_BENCH_OUT;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const rows = goals.map(({ what, figure, goal, anchor = '', met }) => ({
    what,
    figure,
    goal,
    anchor,
    met,
  }));
  writeFileSync(
    join(dir, `${name}.json`),
    `${JSON.stringify({ section, command, goals: rows, body }, null, 2)}\n`,
  );
}
