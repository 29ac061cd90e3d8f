import { useEffect, useState } from 'react';
import { usePlatform } from '../platform';
import type { EventStatus } from '../platform/types';

/** The live event status of the pit display; null until the first one arrives. */
export function useEvent(): EventStatus | null {
  const platform = usePlatform();
  const [status, setStatus] = useState<EventStatus | null>(null);
  useEffect(() => platform.subscribeEvent(setStatus), [platform]);
  return status;
}
