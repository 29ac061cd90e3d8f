import { useEffect, useState, type FormEvent } from 'react';
import {
  RoleAdmin,
  RoleEditor,
  type Invitation,
  type Member,
  type OpenInvitation,
  type RoleChange,
} from '../platform/wire.gen';
import { useAction } from './action';
import { api, messageOf } from './api';
import { ConfirmButtons } from './confirm-buttons';
import { formatWhen, isZeroTime } from './datetime';
import { useMe } from './me';
import { AdminError } from './public/admin-error';

/** OpenInvitation.by of an invitation made with `robohornets admin invite`. */
const byCommand = 'admin command';

/** Who made an invitation, in words: a member's name, or the admin command. */
function inviterName(by: string, members: Member[]): string {
  if (by === byCommand) return 'the admin command';
  const m = members.find((m) => m.id === by);
  return m ? m.name || m.id : by;
}

/** The invitations not used yet. */
async function invitationsOf(): Promise<OpenInvitation[]> {
  return (await api<OpenInvitation[] | null>('GET', '/invitations')) ?? [];
}

/**
 * /admin/members (admins): the members, their roles and suspended
 * passkeys, revoking; the invitations not used yet, and inviting.
 */
export function Members() {
  const { me } = useMe();
  const [members, setMembers] = useState<Member[] | null>(null);
  const [invitations, setInvitations] = useState<OpenInvitation[]>([]);
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
    invitationsOf().then(setInvitations, (err: unknown) => setError(messageOf(err)));
  }, [setError]);

  async function loadInvitations() {
    setInvitations(await invitationsOf());
  }

  /** Puts the member done in the list in place of its old self. */
  function replaced(done: Member) {
    setMembers((list) => (list ?? []).map((m) => (m.id === done.id ? done : m)));
  }

  async function invite(e: FormEvent) {
    e.preventDefault();
    setCopied(false);
    await run(async () => {
      setInvitation(await api<Invitation>('POST', '/invitations', { role, name: name.trim() }));
      setName('');
      await loadInvitations();
    });
  }

  async function uninvite(id: string) {
    await run(async () => {
      await api('DELETE', `/invitations/${encodeURIComponent(id)}`);
      setInvitations((list) => list.filter((inv) => inv.id !== id));
      setInvitation((shown) => (shown?.id === id ? null : shown));
    });
  }

  async function revoke(id: string) {
    await run(async () => {
      replaced(await api<Member>('DELETE', `/members/${encodeURIComponent(id)}`));
      await loadInvitations(); // theirs are gone
    });
    setConfirming(null);
  }

  async function changeRole(id: string, to: string) {
    const change: RoleChange = { role: to };
    await run(async () => {
      replaced(await api<Member>('PATCH', `/members/${encodeURIComponent(id)}`, change));
      await loadInvitations(); // a demoted admin's are gone
    });
  }

  async function clearSuspension(id: string, passkey: string) {
    await run(async () =>
      replaced(
        await api<Member>(
          'DELETE',
          `/members/${encodeURIComponent(id)}/suspended/${encodeURIComponent(passkey)}`,
        ),
      ),
    );
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
            const other = !revoked && m.id !== me.member.id;
            const to = m.role === RoleAdmin ? RoleEditor : RoleAdmin;
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
                  (m.suspendedPasskeys ?? []).map((p) => (
                    <span key={p.id} className="admin-row admin-note">
                      Passkey “{p.name}” suspended {formatWhen(p.suspended)}: its counter went
                      backwards, as a copied passkey’s would. Clear it once {m.name || 'they'}{' '}
                      confirmed both copies are theirs.
                      <button
                        type="button"
                        className="admin-button admin-button--small"
                        disabled={busy}
                        onClick={() => void clearSuspension(m.id, p.id)}
                      >
                        Clear
                      </button>
                    </span>
                  ))}
                {other &&
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
                    <span className="admin-row">
                      <button
                        type="button"
                        className="admin-button admin-button--small"
                        disabled={busy}
                        onClick={() => void changeRole(m.id, to)}
                      >
                        Make {to}
                      </button>
                      <button
                        type="button"
                        className="admin-button admin-button--small"
                        onClick={() => setConfirming(m.id)}
                      >
                        Revoke
                      </button>
                    </span>
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

      {invitations.length > 0 && (
        <section aria-labelledby="open-invitations">
          <h2 id="open-invitations">Links not used yet</h2>
          <ul className="posts">
            {invitations.map((inv) => (
              <li key={inv.id} className="post-row post-row--static">
                <span className="post-row__title">
                  {inv.name || `A new ${inv.role}`} <span className="admin-badge">{inv.role}</span>
                </span>
                <span className="post-row__meta">
                  By {inviterName(inv.by, members ?? [])} · works until {formatWhen(inv.expires)}
                </span>
                <button
                  type="button"
                  className="admin-button admin-button--small"
                  disabled={busy}
                  onClick={() => void uninvite(inv.id)}
                >
                  Cancel the link
                </button>
              </li>
            ))}
          </ul>
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
