import { useState, type FormEvent } from 'react';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import {
  RoleAdmin,
  RoleEditor,
  type Invitation,
  type Member,
  type OpenInvitation,
  type RoleChange,
} from '../../gen/wire.gen';
import { api } from './api';
import { ConfirmButtons } from './confirm-buttons';
import { formatWhen, isZeroTime } from './datetime';
import { useMe } from './me';
import { PageError } from './page-error';
import { AdminError } from './public/admin-error';
import type { PageRoute } from './public/routes';
import { adminOnly } from './public/session';
import { consoleAction, unlessRefused, useRouteAction } from './route-action';

/** OpenInvitation.by of an invitation made with `robohornets admin invite`. */
const byCommand = 'admin command';

/** Who made an invitation, in words: a member's name, or the admin command. */
function inviterName(by: string, members: Member[]): string {
  if (by === byCommand) return 'the admin command';
  const m = members.find((m) => m.id === by);
  return m ? m.name || m.id : by;
}

/** Loads the members and the invitations not used yet, for an admin. */
async function membersLoader(args: LoaderFunctionArgs) {
  await adminOnly(args);
  const [members, invitations] = await Promise.all([
    api<Member[] | null>('GET', '/members'),
    api<OpenInvitation[] | null>('GET', '/invitations'),
  ]);
  return { members: members ?? [], invitations: invitations ?? [] };
}

/** What the page asks its action (the loader then shows what it left). */
type MembersChange =
  | { intent: 'invite'; role: string; name: string }
  | { intent: 'uninvite'; id: string }
  | { intent: 'revoke'; id: string }
  | { intent: 'role'; id: string; role: string }
  | { intent: 'clear-suspension'; id: string; passkey: string };

/** Does what the page asks; an invitation answers with its link, which only this answer holds. */
const membersAction = consoleAction<MembersChange, Invitation | null>(async (change) => {
  const member = (id: string) => `/members/${encodeURIComponent(id)}`;
  switch (change.intent) {
    case 'invite':
      return api<Invitation>('POST', '/invitations', {
        role: change.role,
        name: change.name.trim(),
      });
    case 'uninvite':
      await api('DELETE', `/invitations/${encodeURIComponent(change.id)}`);
      return null;
    case 'revoke':
      // Their invitations go too.
      await api<Member>('DELETE', member(change.id));
      return null;
    case 'role': {
      // A demoted admin's invitations go too.
      const body: RoleChange = { role: change.role };
      await api<Member>('PATCH', member(change.id), body);
      return null;
    }
    case 'clear-suspension':
      await api<Member>(
        'DELETE',
        `${member(change.id)}/suspended/${encodeURIComponent(change.passkey)}`,
      );
      return null;
  }
});

/**
 * /admin/members (admins): the members, their roles and suspended
 * passkeys, revoking; the invitations not used yet, and inviting.
 */
export function Members() {
  const { me } = useMe();
  const { members, invitations } = useLoaderData<typeof membersLoader>();
  const [role, setRole] = useState(RoleEditor);
  const [name, setName] = useState('');
  const [copied, setCopied] = useState(false);
  const [copyError, setCopyError] = useState('');
  const [confirming, setConfirming] = useState<string | null>(null);
  const {
    busy,
    error: actionError,
    done,
    submit,
  } = useRouteAction<MembersChange, Invitation | null>();
  const error = actionError || copyError;
  // The link just made, while it is not used or cancelled.
  const invitation = done && invitations.some((inv) => inv.id === done.id) ? done : null;

  // The name typed goes with an invitation made.
  const [lastMade, setLastMade] = useState(done);
  if (lastMade !== done) {
    setLastMade(done);
    if (done) setName('');
  }

  function invite(e: FormEvent) {
    e.preventDefault();
    setCopied(false);
    setCopyError('');
    submit({ intent: 'invite', role, name });
  }

  function change(body: MembersChange) {
    setCopyError('');
    setConfirming(null);
    submit(body);
  }

  async function copy(link: string) {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      setCopyError('Could not copy: select the link and copy it by hand.');
    }
  }

  return (
    <div className="console-page">
      <h1>Members</h1>
      <AdminError>{error}</AdminError>
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
                      onClick={() =>
                        change({ intent: 'clear-suspension', id: m.id, passkey: p.id })
                      }
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
                    onConfirm={() => change({ intent: 'revoke', id: m.id })}
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
                      onClick={() => change({ intent: 'role', id: m.id, role: to })}
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
                  By {inviterName(inv.by, members)} · works until {formatWhen(inv.expires)}
                </span>
                <button
                  type="button"
                  className="admin-button admin-button--small"
                  disabled={busy}
                  onClick={() => change({ intent: 'uninvite', id: inv.id })}
                >
                  Cancel the link
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}

      <form className="console-form console-actions" onSubmit={invite}>
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

/** The members' route. */
export const route: PageRoute = {
  Component: Members,
  loader: membersLoader,
  action: membersAction,
  shouldRevalidate: unlessRefused,
  ErrorBoundary: PageError,
};
