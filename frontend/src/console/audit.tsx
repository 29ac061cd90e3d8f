import { useEffect, useState } from 'react';
import type { AuditEntry } from '../platform/wire.gen';
import { api, messageOf } from './api';
import { formatWhen } from './datetime';
import { AdminError } from './public/admin-error';

/** /admin/audit (admins): who did what, when, from where; newest first. */
export function Audit() {
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    api<AuditEntry[] | null>('GET', '/audit').then(
      (list) => setEntries(list ?? []),
      (err: unknown) => setError(messageOf(err)),
    );
  }, []);

  return (
    <div className="console-page">
      <h1>Log</h1>
      <AdminError>{error}</AdminError>
      {entries === null && !error && <p className="loading">Loading…</p>}
      <ol className="audit">
        {entries?.map((e, i) => (
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
