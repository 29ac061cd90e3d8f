import { useState } from 'react';
import type { Ceremony, Me } from '../platform/wire.gen';
import { api, messageOf } from './api';
import { formatWhen } from './datetime';
import { useMe } from './me';
import { ceremonyError, defaultDeviceName } from './public/pages';
import { createPasskey } from './public/webauthn';

/** /admin/passkeys: my passkeys; add one (a second phone) or remove one. */
export function Passkeys() {
  const { me, setMe } = useMe();
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);

  async function add() {
    setBusy(true);
    setError('');
    try {
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
    } catch (err) {
      setError(ceremonyError(err, true));
    } finally {
      setBusy(false);
    }
  }

  async function remove(id: string) {
    setBusy(true);
    setError('');
    try {
      setMe(await api<Me>('DELETE', `/passkeys/${encodeURIComponent(id)}`));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
      setConfirming(null);
    }
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
            </span>
            {confirming === key.id ? (
              <span className="admin-row">
                <button
                  type="button"
                  className="admin-button admin-button--danger"
                  disabled={busy}
                  onClick={() => void remove(key.id)}
                >
                  Remove “{key.name}”
                </button>
                <button type="button" className="admin-button" onClick={() => setConfirming(null)}>
                  Keep it
                </button>
              </span>
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
      {error && (
        <p className="admin-error" role="alert">
          {error}
        </p>
      )}
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
