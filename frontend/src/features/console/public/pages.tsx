import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { Ceremony, Me } from '../../../gen/wire.gen';
import { AdminError } from './admin-error';
import { ApiError, NetworkError, request } from './api';
import { consoleHome, safeNext } from './next';
import './public.css';
import { createPasskey, getPasskey, passkeyErrorMessage, passkeysSupported } from './webauthn';

/** Says why a ceremony failed: the server's sentence, no connection, or the browser's refusal. */
export function ceremonyError(err: unknown, creating: boolean): string {
  if (err instanceof ApiError || err instanceof NetworkError) return err.message;
  return passkeyErrorMessage(err, creating);
}

const unsupported =
  'This browser cannot use passkeys. Open the console in a current browser on your phone or computer.';

/** Goes to path with a new document, which now loads the console with its session. */
function goTo(path: string) {
  window.location.assign(path);
}

/** /admin/signin: one button that signs in with a passkey, then goes to ?next. */
export function SignIn() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function signIn() {
    setBusy(true);
    setError('');
    try {
      if (!passkeysSupported()) throw new Error(unsupported);
      const ceremony = await request<Ceremony>('POST', '/signin/begin');
      const credential = await getPasskey(ceremony.options);
      await request<Me>('POST', '/signin/finish', { ceremony: ceremony.id, credential });
      goTo(next);
    } catch (err) {
      setError(ceremonyError(err, false));
      setBusy(false);
    }
  }

  return (
    <div className="admin-public">
      <h1>Team console</h1>
      <p>Post news and pit notices. Sign in with the passkey you made from your invitation.</p>
      <div className="admin-public__actions">
        <AdminError>{error}</AdminError>
        <button
          type="button"
          className="admin-button admin-button--primary admin-button--big"
          onClick={() => void signIn()}
          disabled={busy}
        >
          {busy ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
        </button>
        <p className="admin-hint">No passkey yet? Ask an admin of the team for an invitation.</p>
      </div>
    </div>
  );
}

/** The device name a new passkey gets unless the person types another. */
export function defaultDeviceName(userAgent: string): string {
  if (/iPad|Tablet/i.test(userAgent)) return 'Tablet';
  if (/Android|iPhone|Mobile/i.test(userAgent)) return 'Phone';
  return 'Computer';
}

/**
 * /admin/enrol#token: makes a passkey from an invitation. The token is read
 * from the fragment (never sent to the server's logs) and taken out of the
 * address bar at once; the invitation dies when the passkey is made.
 */
export function Enrol() {
  const [token] = useState(() => decodeURIComponent(window.location.hash.replace(/^#/, '')));
  const [name, setName] = useState(() => defaultDeviceName(navigator.userAgent));
  const [ceremony, setCeremony] = useState<Ceremony | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (window.location.hash) {
      window.history.replaceState(
        window.history.state,
        '',
        window.location.pathname + window.location.search,
      );
    }
  }, []);

  // Asks for the ceremony at once: a used or expired link says so before
  // anyone types a name.
  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    request<Ceremony>('POST', '/enrol/begin', { token }).then(setCeremony, (err: unknown) =>
      setError(ceremonyError(err, true)),
    );
  }, [token]);

  async function enrol(e: FormEvent) {
    e.preventDefault();
    if (!ceremony) return;
    setBusy(true);
    setError('');
    try {
      if (!passkeysSupported()) throw new Error(unsupported);
      const credential = await createPasskey(ceremony.options);
      await request<Me>('POST', '/enrol/finish', {
        ceremony: ceremony.id,
        credential,
        name: name.trim() || defaultDeviceName(navigator.userAgent),
      });
      goTo(consoleHome);
    } catch (err) {
      setError(ceremonyError(err, true));
      setBusy(false);
      // A ceremony is good for one try: ask for a new one with the same link.
      if (!(err instanceof ApiError && err.status === 410)) {
        request<Ceremony>('POST', '/enrol/begin', { token }).then(setCeremony, () => {});
      }
    }
  }

  if (!token) {
    return (
      <div className="admin-public">
        <h1>Join the team console</h1>
        <AdminError>
          This page needs the whole invitation link, as it was sent to you. Open it again, or ask an
          admin for a new one.
        </AdminError>
      </div>
    );
  }
  return (
    <div className="admin-public">
      <h1>Join the team console</h1>
      <p>
        Make a passkey on this device: your fingerprint, face or screen lock signs you in from now
        on. No password.
      </p>
      <form className="admin-public__actions" onSubmit={(e) => void enrol(e)}>
        <label className="admin-field">
          <span>Name of this device</span>
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={60}
            autoComplete="off"
            required
          />
        </label>
        <AdminError>{error}</AdminError>
        <button
          type="submit"
          className="admin-button admin-button--primary admin-button--big"
          disabled={busy || !ceremony}
        >
          {busy ? 'Waiting for your passkey…' : 'Create passkey'}
        </button>
      </form>
    </div>
  );
}
