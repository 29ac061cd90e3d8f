/** One round trip to the server's clock (GET /api/time), in epoch milliseconds. */
export interface TimeSample {
  /** Local time the request was sent. */
  sentMs: number;
  /** The server's time in its answer. */
  serverMs: number;
  /** Local time the answer arrived. */
  receivedMs: number;
}

/**
 * Estimates how far the server's clock is ahead of the local one, NTP-style:
 * the server read its clock halfway through the round trip, and the sample
 * with the shortest round trip is the least disturbed by the network.
 * Returns 0 with no samples.
 */
export function clockOffset(samples: readonly TimeSample[]): number {
  let best: TimeSample | undefined;
  for (const s of samples) {
    if (s.receivedMs < s.sentMs) continue; // the local clock jumped meanwhile
    if (!best || s.receivedMs - s.sentMs < best.receivedMs - best.sentMs) best = s;
  }
  if (!best) return 0;
  return best.serverMs - (best.sentMs + best.receivedMs) / 2;
}
