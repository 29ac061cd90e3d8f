import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { AuditEntry } from '../../gen/wire.gen';
import { api } from './api';
import { formatWhen } from './datetime';
import { PageError } from './page-error';
import type { PageRoute } from './public/routes';
import { adminOnly } from './public/session';

/** Loads the log, for an admin. */
async function auditLoader(args: LoaderFunctionArgs): Promise<AuditEntry[]> {
  await adminOnly(args);
  return (await api<AuditEntry[] | null>('GET', '/audit')) ?? [];
}

/** /admin/audit (admins): who did what, when, from where; newest first. */
export function Audit() {
  const entries = useLoaderData<typeof auditLoader>();
  return (
    <div className="console-page">
      <h1>Log</h1>
      <ol className="audit">
        {entries.map((e, i) => (
          <li key={`${e.at}-${i}`} className="audit__entry">
            <span className="audit__what">
              <strong>{e.name || e.memberId || 'someone'}</strong> {e.action}
              {e.target && <> · {e.target}</>}
            </span>
            <span className="post-row__meta">
              {formatWhen(e.at)} · from {e.addr}
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** The log's route. */
export const route: PageRoute = { Component: Audit, loader: auditLoader, ErrorBoundary: PageError };
