import { useMemo, useState } from 'react';
import { NavLink, Outlet, useLoaderData, useNavigation } from 'react-router';
import { RoleAdmin } from '../../gen/wire.gen';
import './console.css';
import { MeContext } from './me';
import './public/public.css';
import type { PageRoute } from './public/routes';
import type { gate } from './public/session';
import { SignOutButton } from './sign-out-button';
import { VerifyProvider } from './verify';

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

/**
 * The team console around its pages: who is signed in (the gate's answer,
 * replaced after a change of passkeys), the way to ask for the passkey
 * again, and the navigation.
 */
export function Console() {
  const first = useLoaderData<typeof gate>();
  const [me, setMe] = useState(first);
  const state = useMemo(() => ({ me, setMe }), [me]);
  const loading = useNavigation().state === 'loading';
  const admin = me.member.role === RoleAdmin;
  return (
    <MeContext.Provider value={state}>
      <VerifyProvider>
        <div className="console" aria-busy={loading}>
          <header className="console-top">
            <span className="console-top__title">Team console</span>
            <span className="console-top__who">{me.member.name}</span>
            <SignOutButton everywhere={false} className="admin-button admin-button--quiet">
              Sign out
            </SignOutButton>
          </header>
          <Outlet />
          <ConsoleNav admin={admin} />
        </div>
      </VerifyProvider>
    </MeContext.Provider>
  );
}

/** The signed-in pages' parent route (its loader, the gate, is public: routes.tsx). */
export const route: PageRoute = { Component: Console };
