import { createContext, useContext } from 'react';
import type { Platform } from './types';

export type { Article, KioskCommand, NewsSnapshot, Platform } from './types';

/** The Platform every page uses; main.tsx provides the real one, tests a fake. */
export const PlatformContext = createContext<Platform | null>(null);

/** Returns the Platform of the running host. */
export function usePlatform(): Platform {
  const platform = useContext(PlatformContext);
  if (!platform) throw new Error('usePlatform: no PlatformContext provider');
  return platform;
}
