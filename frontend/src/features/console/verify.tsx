// Fresh verification: what could let a thief in or keep one in (adding a
// passkey, inviting, changing a role, revoking) needs the member's passkey
// within the last minutes. When the site asks for it, a dialog over the
// page asks for the passkey; the page underneath keeps what is on it, and
// the action runs again (action.ts).
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import type { Ceremony, Me } from '../../gen/wire.gen';
import { api } from './api';
import { AdminError } from './public/admin-error';
import { ceremonyError } from './public/pages';
import { getPasskey } from './public/webauthn';

/** Asks for the passkey again; resolves true once the session is verified, false when the member declines. */
export type Verify = () => Promise<boolean>;

/** How the console's pages ask for the passkey again; VerifyProvider provides it. */
export const VerifyContext = createContext<Verify | null>(null);

/** The console's Verify, or null outside a VerifyProvider (the action then just fails). */
export function useVerify(): Verify | null {
  return useContext(VerifyContext);
}

/** Verifies the session with one of the member's passkeys (POST /verify/begin, the passkey, /verify/finish). */
async function verifySession(): Promise<void> {
  const ceremony = await api<Ceremony>('POST', '/verify/begin');
  const credential = await getPasskey(ceremony.options);
  await api<Me>('POST', '/verify/finish', { ceremony: ceremony.id, credential });
}

/**
 * Provides VerifyContext to the console: when asked, a dialog over the page
 * with a button that asks for the passkey (a tap of its own, which a
 * phone's browser wants before it shows its passkey sheet).
 */
export function VerifyProvider({ children }: { children: ReactNode }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const answer = useRef<((verified: boolean) => void) | null>(null);

  const verify = useCallback<Verify>(
    () =>
      new Promise<boolean>((resolve) => {
        answer.current?.(false); // one question at a time
        answer.current = resolve;
        setError('');
        setAsking(true);
      }),
    [],
  );

  function settle(verified: boolean) {
    answer.current?.(verified);
    answer.current = null;
    setAsking(false);
  }

  async function confirmWithPasskey() {
    setBusy(true);
    setError('');
    try {
      await verifySession();
      settle(true);
    } catch (err) {
      setError(ceremonyError(err, false));
    } finally {
      setBusy(false);
    }
  }

  return (
    <VerifyContext.Provider value={verify}>
      {children}
      {asking && (
        <div className="verify-backdrop">
          <section
            className="admin-panel verify-dialog"
            role="dialog"
            aria-modal="true"
            aria-labelledby="verify-title"
          >
            <h2 id="verify-title">Confirm it is you</h2>
            <p>
              This needs your passkey again, so that a phone left signed in cannot do it without
              you. What you typed stays as it is.
            </p>
            <AdminError>{error}</AdminError>
            <div className="admin-row">
              <button
                type="button"
                className="admin-button admin-button--primary"
                disabled={busy}
                autoFocus
                onClick={() => void confirmWithPasskey()}
              >
                {busy ? 'Waiting for your passkey…' : 'Use my passkey'}
              </button>
              <button type="button" className="admin-button" onClick={() => settle(false)}>
                Cancel
              </button>
            </div>
          </section>
        </div>
      )}
    </VerifyContext.Provider>
  );
}
