import { useEffect, useState, type FormEvent } from 'react';
import { RoleAdmin, RoleEditor, type Invitation, type Member } from '../platform/wire.gen';
import { useAction } from './action';
import { api, messageOf } from './api';
import { ConfirmButtons } from './confirm-buttons';
import { formatWhen, isZeroTime } from './datetime';
import { useMe } from './me';
import { AdminError } from './public/admin-error';

/** /admin/members (admins): the members, invitations, and revoking. */
export function Members() {
  const { me } = useMe();
  const [members, setMembers] = useState<Member[] | null>(null);
  const [role, setRole] = useState(RoleEditor);
  const [name, setName] = useState('');
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction();

  useEffect(() => {
    api<Member[] | null>('GET', '/members').then(
      (list) => setMembers(list ?? []),
      (err: unknown) => setError(messageOf(err)),
    );
  }, [setError]);

  async function invite(e: FormEvent) {
    e.preventDefault();
    setCopied(false);
    await run(async () => {
      setInvitation(await api<Invitation>('POST', '/invitations', { role, name: name.trim() }));
      setName('');
    });
  }

  async function revoke(id: string) {
    await run(async () => {
      const done = await api<Member>('DELETE', `/members/${encodeURIComponent(id)}`);
      setMembers((list) => (list ?? []).map((m) => (m.id === done.id ? done : m)));
    });
    setConfirming(null);
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
      <AdminError>{error}</AdminError>
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
                    <ConfirmButtons
                      cancel="Cancel"
                      busy={busy}
                      onConfirm={() => void revoke(m.id)}
                      onCancel={() => setConfirming(null)}
                    >
                      Revoke {m.name || m.id} now
                    </ConfirmButtons>
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
