import { useEffect, useMemo, useState } from 'react';
import { Navigate, NavLink, useRoutes } from 'react-router';
import { RoleAdmin, type Me } from '../platform/wire.gen';
import { api, messageOf } from './api';
import { Audit } from './audit';
import './console.css';
import { Editor } from './editor';
import { MeContext } from './me';
import { Members } from './members';
import { NoticePage } from './notice';
import { Passkeys } from './passkeys';
import { PostsList } from './posts-list';
import { AdminError } from './public/admin-error';
import './public/public.css';
import { SignOutButton } from './sign-out-button';
import { VerifyProvider } from './verify';

/** The console's pages, under /admin. */
function ConsoleRoutes({ admin }: { admin: boolean }) {
  return useRoutes([
    { index: true, element: <PostsList /> },
    { path: 'posts/:id', element: <Editor /> },
    { path: 'notice', element: <NoticePage /> },
    { path: 'passkeys', element: <Passkeys /> },
    ...(admin
      ? [
          { path: 'members', element: <Members /> },
          { path: 'audit', element: <Audit /> },
        ]
      : []),
    { path: '*', element: <Navigate to="/admin" replace /> },
  ]);
}

/** The bar at the bottom of the console's pages, within a thumb's reach. */
function ConsoleNav({ admin }: { admin: boolean }) {
  const items: [string, string][] = [
    ['/admin', 'Posts'],
    ['/admin/notice', 'Notice'],
    ['/admin/passkeys', 'Passkeys'],
    ...(admin
      ? ([
          ['/admin/members', 'Members'],
          ['/admin/audit', 'Log'],
        ] as [string, string][])
      : []),
  ];
  return (
    <nav className="console-nav" aria-label="Console">
      {items.map(([to, label]) => (
        <NavLink key={to} to={to} end className="console-nav__item">
          {label}
        </NavLink>
      ))}
    </nav>
  );
}

/** The team console: who is signed in, its pages, and its navigation. */
export default function Console() {
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    api<Me>('GET', '/me').then(setMe, (err: unknown) => setError(messageOf(err)));
  }, []);
  const state = useMemo(() => (me ? { me, setMe } : null), [me]);

  if (error) {
    return (
      <div className="console-page">
        <AdminError>{error}</AdminError>
        <button type="button" className="admin-button" onClick={() => window.location.reload()}>
          Try again
        </button>
      </div>
    );
  }
  if (!state) return <p className="loading">Loading…</p>;
  const admin = state.me.member.role === RoleAdmin;
  return (
    <MeContext.Provider value={state}>
      <VerifyProvider>
        <div className="console">
          <header className="console-top">
            <span className="console-top__title">Team console</span>
            <span className="console-top__who">{state.me.member.name}</span>
            <SignOutButton everywhere={false} className="admin-button admin-button--quiet">
              Sign out
            </SignOutButton>
          </header>
          <ConsoleRoutes admin={admin} />
          <ConsoleNav admin={admin} />
        </div>
      </VerifyProvider>
    </MeContext.Provider>
  );
}
