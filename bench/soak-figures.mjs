// The figures of a soak from its memory samples ({minute, kib}, one a
// minute), shared by `make soak` and by anyone recomputing a run from the
// samples it wrote to docs/SOAK.md:
//   node bench/soak-figures.mjs BASELINE_MINUTE "0: 425.5, 1: 472.4, …"
//
// One sample swings by a few per cent with what the page is doing at that
// minute (a celebration, a page change), as much as the goal itself, so the
// growth compares means over a window (10 minutes, or a third of a shorter
// run): the first window from the baseline minute against the last one.

/** Least-squares slope of ys over xs. */
function slope(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

export function soakFigures(samples, baselineMinute) {
  const after = samples.filter((s) => s.minute >= baselineMinute);
  const window = Math.max(1, Math.min(10, Math.floor(after.length / 3)));
  const base = mean(after.slice(0, window).map((s) => s.kib));
  const end = mean(after.slice(-window).map((s) => s.kib));
  const first = after[0].kib;
  const last = after.at(-1).kib;
  return {
    window,
    base,
    end,
    growth: (end / base - 1) * 100,
    first,
    last,
    lastGrowth: (last / first - 1) * 100,
    peak: Math.max(...after.map((s) => s.kib)),
    perHour: slope(
      after.map((s) => s.minute / 60),
      after.map((s) => (s.kib / base - 1) * 100),
    ),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [baselineMinute, list] = process.argv.slice(2);
  const samples = list.split(',').map((pair) => {
    const [minute, mibs] = pair.split(':').map(Number);
    return { minute, kib: mibs * 1024 };
  });
  const f = soakFigures(samples, Number(baselineMinute));
  console.log(
    `window ${f.window} min: ${(f.base / 1024).toFixed(1)} → ${(f.end / 1024).toFixed(1)} MiB, growth ${f.growth.toFixed(1)} %; ` +
      `one sample to one sample ${f.lastGrowth.toFixed(1)} %; peak ${(f.peak / 1024).toFixed(1)} MiB; slope ${f.perHour.toFixed(2)} %/h`,
  );
}
