import { createContext, useContext } from 'react';
import type { Me } from '../../gen/wire.gen';

/** Who is signed in, and how to replace it (after adding or removing a passkey). */
export interface MeState {
  me: Me;
  setMe(me: Me): void;
}

/** The signed-in member of the console; console.tsx provides it. */
export const MeContext = createContext<MeState | null>(null);

/** Returns the signed-in member. */
export function useMe(): MeState {
  const state = useContext(MeContext);
  if (!state) throw new Error('useMe: no MeContext provider');
  return state;
}
