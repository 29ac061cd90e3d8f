/** How late clock ticks are, over the last few minutes, in milliseconds. */
export interface TickSummary {
  /** Ticks in the window. */
  count: number;
  /** Median and 99th percentile of how long after its wall-clock second a tick reached the page. */
  p50: number;
  p99: number;
  /** 99th percentile of how long after its second the host sent the tick (the rest is delivery). */
  sentP99: number;
}

/**
 * Keeps the lateness of the last `size` clock ticks: how long after its
 * whole second each tick was sent (its stamp) and reached the page. The
 * desktop window reports the summary with its heartbeat, so an operator (and
 * `make bench`) can see whether the clock on screen keeps time, and where
 * the time goes.
 */
export class TickStats {
  private readonly arrived: number[] = [];
  private readonly sent: number[] = [];
  private next = 0;

  constructor(private readonly size = 300) {}

  /** Records a tick stamped tickMs (on or just after a whole second) that arrived at arrivedMs. */
  add(tickMs: number, arrivedMs: number): void {
    const second = Math.floor(tickMs / 1000) * 1000;
    if (this.arrived.length < this.size) {
      this.arrived.push(arrivedMs - second);
      this.sent.push(tickMs - second);
    } else {
      this.arrived[this.next] = arrivedMs - second;
      this.sent[this.next] = tickMs - second;
    }
    this.next = (this.next + 1) % this.size;
  }

  /** The lateness percentiles of the recorded ticks; zeros before any. */
  summary(): TickSummary {
    return {
      count: this.arrived.length,
      p50: percentile(this.arrived, 0.5),
      p99: percentile(this.arrived, 0.99),
      sentP99: percentile(this.sent, 0.99),
    };
  }
}

function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}
