import { useEffect, useState } from 'react';
import { usePlatform } from '../platform';
import type { EventStatus } from '../platform/types';

/**
 * The live event status of the pit display; null until the first one
 * arrives. It starts from the status the platform already has (inlined in
 * the page, or seen before), so the first render is the final layout.
 */
export function useEvent(): EventStatus | null {
  const platform = usePlatform();
  const [status, setStatus] = useState<EventStatus | null>(() => platform.currentEvent() ?? null);
  useEffect(() => platform.subscribeEvent(setStatus), [platform]);
  return status;
}
