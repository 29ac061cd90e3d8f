import { useEffect, useState } from 'react';
import { usePlatform } from '../platform';

/** The host's clock in epoch milliseconds, moved on by its once-a-second ticks. */
export function useNow(): number {
  const platform = usePlatform();
  const [nowMs, setNowMs] = useState(() => platform.now());
  useEffect(() => platform.subscribeTicks(setNowMs), [platform]);
  return nowMs;
}
