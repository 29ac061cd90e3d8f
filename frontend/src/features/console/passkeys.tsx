import { useState } from 'react';
import type { Ceremony, Me } from '../../gen/wire.gen';
import { useAction } from './action';
import { api, goSignIn } from './api';
import { ConfirmButtons } from './confirm-buttons';
import { formatWhen, isZeroTime } from './datetime';
import { useMe } from './me';
import { PageError } from './page-error';
import { AdminError } from './public/admin-error';
import { ceremonyError, defaultDeviceName } from './public/pages';
import type { PageRoute } from './public/routes';
import { createPasskey } from './public/webauthn';
import { SignOutButton } from './sign-out-button';

/**
 * /admin/passkeys: my passkeys (the signed-in member's, from the console's
 * gate); add one (a second phone) or remove one;
 * sign out everywhere.
 */
export function Passkeys() {
  const { me, setMe } = useMe();
  const [name, setName] = useState('');
  const { busy, error, run } = useAction();
  const [confirming, setConfirming] = useState<string | null>(null);

  async function add() {
    await run(
      async () => {
        const ceremony = await api<Ceremony>('POST', '/passkeys/begin');
        const credential = await createPasskey(ceremony.options);
        setMe(
          await api<Me>('POST', '/passkeys/finish', {
            ceremony: ceremony.id,
            credential,
            name: name.trim() || defaultDeviceName(navigator.userAgent),
          }),
        );
        setName('');
      },
      (err) => ceremonyError(err, true),
    );
  }

  async function remove(id: string) {
    await run(async () => {
      const after = await api<Me>('DELETE', `/passkeys/${encodeURIComponent(id)}`);
      // Removing the passkey that opened this session ended it.
      if (id === me.sessionPasskey) goSignIn();
      else setMe(after);
    });
    setConfirming(null);
  }

  const passkeys = me.passkeys ?? [];
  return (
    <div className="console-page">
      <h1>My passkeys</h1>
      <p className="admin-hint">
        Signed in as {me.member.name} ({me.member.role}). Add a passkey on a second phone so you are
        never locked out.
      </p>
      <ul className="posts">
        {passkeys.map((key) => (
          <li key={key.id} className="post-row post-row--static">
            <span className="post-row__title">{key.name}</span>
            <span className="post-row__meta">
              Made {formatWhen(key.created)}
              {formatWhen(key.lastUsed) && ` · last used ${formatWhen(key.lastUsed)}`}
              {key.id === me.sessionPasskey && ' · signed in here with it'}
            </span>
            {!isZeroTime(key.suspended) && (
              <span className="admin-note">
                Suspended {formatWhen(key.suspended)}: its counter went backwards, as a copied
                passkey’s would. Remove it, or ask an admin to check it and clear it.
              </span>
            )}
            {confirming === key.id ? (
              <ConfirmButtons
                cancel="Keep it"
                busy={busy}
                onConfirm={() => void remove(key.id)}
                onCancel={() => setConfirming(null)}
              >
                Remove “{key.name}”{key.id === me.sessionPasskey && ' and sign out here'}
              </ConfirmButtons>
            ) : (
              <button
                type="button"
                className="admin-button admin-button--small"
                disabled={busy || passkeys.length < 2}
                title={passkeys.length < 2 ? 'Your only passkey cannot be removed' : undefined}
                onClick={() => setConfirming(key.id)}
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      <section className="admin-panel" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Signed in somewhere else?</h2>
        <p className="admin-hint">
          A lost phone, or a computer that is not yours: end every session of yours, this one too.
          Your passkeys stay.
        </p>
        <SignOutButton everywhere className="admin-button admin-button--danger">
          Sign out everywhere
        </SignOutButton>
      </section>
      <AdminError>{error}</AdminError>
      <div className="console-actions">
        <label className="admin-field">
          <span>Name of the new passkey's device</span>
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Second phone"
            maxLength={60}
          />
        </label>
        <button
          type="button"
          className="admin-button admin-button--primary admin-button--big"
          disabled={busy}
          onClick={() => void add()}
        >
          Add a passkey
        </button>
      </div>
    </div>
  );
}

/**
 * The passkeys' route. Adding a passkey stays in the page (useAction): the
 * browser's passkey sheet follows the tap on the button at once.
 */
export const route: PageRoute = { Component: Passkeys, ErrorBoundary: PageError };
