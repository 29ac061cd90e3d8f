// The summary table at the top of docs/BENCHMARKS.md: each benchmark adds
// one row per figure to the file named by $BENCH_SUMMARY (make bench sets
// it; a benchmark run on its own adds none). A row: the figure, its value,
// its goal, its anchor (what it is measured against) and whether it is met.
import { appendFileSync } from 'node:fs';

/** Adds a row to the summary of `make bench`. */
export function summaryRow({ figure, value, goal, anchor = '', met }) {
  const file = process.env.BENCH_SUMMARY;
  if (!file) return;
  appendFileSync(
    file,
    `| ${figure} | ${value} | ${goal} | ${anchor} | ${met ? 'met' : '**not met**'} |\n`,
  );
}
