// Who is signed in, as the console's routes ask it (routes.tsx): the gate
// of the signed-in pages (their parent route's loader), the pages' code,
// which is fetched only once the site said someone is signed in, and the
// pages only admins may open.
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { RoleAdmin, type Me } from '../../../gen/wire.gen';
import { ApiError, request } from './api';
import { consoleHome, signInHref } from './next';

// The question under way (GET /me): whoever asks meanwhile (the gate and
// the pages' code of one navigation) shares its answer.
let asking: Promise<Me> | null = null;

// The site's last answer in this document. Signing out, and a session that
// ends (any 401 of the API), leave the document, so it holds while the
// console is open.
let known: Me | null = null;

/** Asks the site who is signed in (GET /me), unless that question is under way already. */
function ask(): Promise<Me> {
  if (!asking) {
    const question = request<Me>('GET', '/me');
    asking = question;
    question
      .then(
        (me) => {
          known = me;
        },
        () => {},
      )
      .finally(() => {
        if (asking === question) asking = null;
      });
  }
  return asking;
}

/**
 * Resolves once this document may fetch the console's code: someone is
 * signed in. Rejects as the site refused (no session; no console at all in
 * the desktop window, whose server has none), so no console file is asked
 * for without a session.
 */
export async function admitted(): Promise<void> {
  if (!known) await ask();
}

/**
 * The gate of the signed-in pages (their parent route's loader): the
 * signed-in member, asked afresh; without a session, a redirect to sign in
 * that comes back here afterwards.
 */
export async function gate({ request: req }: LoaderFunctionArgs): Promise<Me> {
  try {
    return await ask();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      const url = new URL(req.url);
      throw redirect(signInHref(url.pathname + url.search));
    }
    throw err;
  }
}

/**
 * Lets a loader of a page for admins go on, and sends anyone else to the
 * console's start: the page is not theirs, and asking the API would only
 * leave a refusal in the log.
 */
export async function adminOnly(args: LoaderFunctionArgs): Promise<void> {
  const me = known ?? (await gate(args));
  if (me.member.role !== RoleAdmin) throw redirect(consoleHome);
}
