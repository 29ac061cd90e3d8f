// The console's route actions (a page's form submissions as the router's
// actions): what the API refuses comes back to the page as data, where
// the page says it, or, when the site wants the passkey again first, asks
// for it over the page and sends the same submission once more.
import { useEffect, useRef, useState } from 'react';
import {
  useFetcher,
  type ActionFunctionArgs,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';
import { messageOf, needsVerification } from './api';
import { ApiError, NetworkError } from './public/api';
import { useVerify } from './verify';

/** What a console action gives its page: what the site answered, or the refusal that stopped it. */
export type ActionResult<T> = { done: T } | { failed: ApiError | NetworkError };

/** A submission of a console page: a JSON object naming what to do. */
type Submission = Record<string, string>;

/**
 * Makes a route action of act, which does what body (the page's JSON
 * submission) asks. A refusal of the API, or no connection, becomes the
 * result's failed; anything else goes to the route's error element.
 */
export function consoleAction<B extends Submission, T>(act: (body: B) => Promise<T>) {
  return async ({ request }: ActionFunctionArgs): Promise<ActionResult<T>> => {
    const body = (await request.json()) as B;
    try {
      return { done: await act(body) };
    } catch (err) {
      if (err instanceof ApiError || err instanceof NetworkError) return { failed: err };
      throw err;
    }
  };
}

/**
 * A page's shouldRevalidate: its loader runs again after its action did
 * something, not after a refusal (nothing changed).
 */
export function unlessRefused({
  actionResult,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs): boolean {
  const refused = !!actionResult && typeof actionResult === 'object' && 'failed' in actionResult;
  return refused ? false : defaultShouldRevalidate;
}

/** A page's use of its route action: one submission at a time, with the last one's outcome. */
export interface RouteAction<B, T> {
  /** Whether a submission is under way (or waits for the passkey): the page's buttons wait meanwhile. */
  busy: boolean;
  /** The last failure as a sentence, or ''. */
  error: string;
  /** What the last submission's action answered, once it succeeded. */
  done: T | undefined;
  /** Sends body to the route's action. */
  submit(body: B): void;
}

/**
 * Submits to the current route's action (useFetcher: the page stays, its
 * loader runs again after). When the site wants the passkey again first,
 * it asks for it over the page (VerifyProvider) and sends the same body
 * once more; declined, the refusal is the error.
 */
export function useRouteAction<B extends Submission, T>(): RouteAction<B, T> {
  const fetcher = useFetcher<ActionResult<T>>();
  const { submit: send } = fetcher;
  const verify = useVerify();
  const sent = useRef<B | null>(null);
  // The result whose question for the passkey was declined.
  const [declined, setDeclined] = useState<ActionResult<T> | null>(null);

  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  const failed = result && 'failed' in result ? result.failed : undefined;
  const asking = !!verify && needsVerification(failed) && declined !== result;

  useEffect(() => {
    if (!asking || !verify || !result) return;
    let current = true;
    void verify().then((verified) => {
      if (!current) return;
      // Refused, so nothing was done: after the passkey, the same again.
      if (verified && sent.current) {
        void send(sent.current, { method: 'post', encType: 'application/json' });
      } else {
        setDeclined(result);
      }
    });
    return () => {
      current = false;
    };
  }, [asking, verify, result, send]);

  const busy = fetcher.state !== 'idle' || asking;
  return {
    busy,
    error: failed && !busy ? messageOf(failed) : '',
    done: result && 'done' in result ? result.done : undefined,
    submit(body) {
      sent.current = body;
      void send(body, { method: 'post', encType: 'application/json' });
    },
  };
}
