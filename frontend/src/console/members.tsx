import { useEffect, useState, type FormEvent } from 'react';
import { RoleAdmin, RoleEditor, type Invitation, type Member } from '../platform/wire.gen';
import { api, messageOf } from './api';
import { formatWhen, isZeroTime } from './datetime';
import { useMe } from './me';

/** /admin/members (admins): the members, invitations, and revoking. */
export function Members() {
  const { me } = useMe();
  const [members, setMembers] = useState<Member[] | null>(null);
  const [role, setRole] = useState(RoleEditor);
  const [name, setName] = useState('');
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api<Member[] | null>('GET', '/members').then(
      (list) => setMembers(list ?? []),
      (err: unknown) => setError(messageOf(err)),
    );
  }, []);

  async function invite(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError('');
    setCopied(false);
    try {
      setInvitation(await api<Invitation>('POST', '/invitations', { role, name: name.trim() }));
      setName('');
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  async function revoke(id: string) {
    setBusy(true);
    setError('');
    try {
      const done = await api<Member>('DELETE', `/members/${encodeURIComponent(id)}`);
      setMembers((list) => (list ?? []).map((m) => (m.id === done.id ? done : m)));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
      setConfirming(null);
    }
  }

  async function copy(link: string) {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      setError('Could not copy: select the link and copy it by hand.');
    }
  }

  return (
    <div className="console-page">
      <h1>Members</h1>
      {error && (
        <p className="admin-error" role="alert">
          {error}
        </p>
      )}
      {members === null ? (
        <p className="loading">Loading…</p>
      ) : (
        <ul className="posts">
          {members.map((m) => {
            const revoked = !isZeroTime(m.revoked);
            return (
              <li key={m.id} className="post-row post-row--static">
                <span className="post-row__title">
                  {m.name || m.id} <span className="admin-badge">{m.role}</span>
                </span>
                <span className="post-row__meta">
                  {revoked
                    ? `Revoked ${formatWhen(m.revoked)}`
                    : `${m.passkeys} passkey${m.passkeys === 1 ? '' : 's'} · since ${formatWhen(m.created)}`}
                </span>
                {!revoked &&
                  m.id !== me.member.id &&
                  (confirming === m.id ? (
                    <span className="admin-row">
                      <button
                        type="button"
                        className="admin-button admin-button--danger"
                        disabled={busy}
                        onClick={() => void revoke(m.id)}
                      >
                        Revoke {m.name || m.id} now
                      </button>
                      <button
                        type="button"
                        className="admin-button"
                        onClick={() => setConfirming(null)}
                      >
                        Cancel
                      </button>
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="admin-button admin-button--small"
                      onClick={() => setConfirming(m.id)}
                    >
                      Revoke
                    </button>
                  ))}
              </li>
            );
          })}
        </ul>
      )}

      {invitation && (
        <section className="admin-panel" aria-label="Invitation">
          <h2>Invitation for {invitation.name || `a new ${invitation.role}`}</h2>
          <p className="admin-hint">
            Send this link to them alone. It works once, until {formatWhen(invitation.expires)}.
          </p>
          <input
            className="invite-link"
            readOnly
            value={invitation.link}
            aria-label="Invitation link"
          />
          <button
            type="button"
            className="admin-button admin-button--primary"
            onClick={() => void copy(invitation.link)}
          >
            {copied ? 'Copied' : 'Copy the link'}
          </button>
        </section>
      )}

      <form className="console-form console-actions" onSubmit={(e) => void invite(e)}>
        <h2>Invite someone</h2>
        <label className="admin-field">
          <span>Name</span>
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={60} />
        </label>
        <label className="admin-field">
          <span>Role</span>
          <select value={role} onChange={(e) => setRole(e.target.value)}>
            <option value={RoleEditor}>Editor: news and pit notices</option>
            <option value={RoleAdmin}>Admin: also members and the log</option>
          </select>
        </label>
        <button
          type="submit"
          className="admin-button admin-button--primary admin-button--big"
          disabled={busy}
        >
          Make an invitation link
        </button>
      </form>
    </div>
  );
}
