import { useState } from 'react';
import { messageOf, needsVerification } from './api';
import { useVerify } from './verify';

/** A console page's actions: one at a time, with the last one's failure. */
export interface Action {
  /** Whether an action is running: the page's buttons wait meanwhile. */
  busy: boolean;
  /** The last failure as a sentence, or ''. */
  error: string;
  /** Sets error from outside an action (a failed load, say); the same function every render. */
  setError(error: string): void;
  /**
   * Runs act, busy meanwhile, clearing the last error first; a failure
   * becomes error in describe's words (messageOf's by default). When the
   * site wants the passkey again first, it asks for it over the page and
   * runs act once more. Never rejects.
   */
  run(act: () => Promise<void>, describe?: (err: unknown) => string): Promise<void>;
}

/** The busy state and error of a console page's actions. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const verify = useVerify();

  async function run(act: () => Promise<void>, describe: (err: unknown) => string = messageOf) {
    setBusy(true);
    setError('');
    try {
      try {
        await act();
      } catch (err) {
        // Refused, so nothing was done: after the passkey, the same again.
        if (!needsVerification(err) || !verify || !(await verify())) throw err;
        await act();
      }
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  }

  return { busy, error, setError, run };
}
