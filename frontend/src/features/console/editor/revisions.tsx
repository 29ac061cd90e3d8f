import { useEffect, useState } from 'react';
import type { Post, Revision, Save } from '../../../gen/wire.gen';
import { useAction } from '../action';
import { api, messageOf } from '../api';
import { formatWhen, zeroTime } from '../datetime';
import { AdminError } from '../public/admin-error';

interface Props {
  id: string;
  /** The post's version now: the list is fetched again when it changes. */
  version: number;
  /** Saves what is pending and resolves with the version a restore is based on. */
  beforeRestore(): Promise<number>;
  onRestored(post: Post): void;
}

/** The Revisions tab: every save of the post; one can be viewed and restored (a new revision). */
export function Revisions({ id, version, beforeRestore, onRestored }: Props) {
  const [list, setList] = useState<Revision[] | null>(null);
  const [shown, setShown] = useState<Revision | null>(null);
  const { busy, error, setError, run } = useAction();
  const base = `/posts/${encodeURIComponent(id)}/revisions`;

  useEffect(() => {
    let current = true;
    api<Revision[] | null>('GET', base).then(
      (revs) => current && setList(revs ?? []),
      (err: unknown) => current && setError(messageOf(err)),
    );
    return () => {
      current = false;
    };
  }, [base, version, setError]);

  async function view(n: number) {
    setError('');
    try {
      setShown(await api<Revision>('GET', `${base}/${n}`));
    } catch (err) {
      setError(messageOf(err));
    }
  }

  async function restore(n: number) {
    await run(async () => {
      const baseVersion = await beforeRestore();
      const body: Save = { title: '', date: zeroTime, content: '', baseVersion, at: zeroTime };
      onRestored(await api<Post>('POST', `${base}/${n}/restore`, body));
    });
  }

  return (
    <div role="tabpanel" aria-label="Revisions" className="revisions">
      <AdminError>{error}</AdminError>
      {shown ? (
        <section className="admin-panel" aria-label={`Revision ${shown.n}`}>
          <h2>
            Revision {shown.n}
            {shown.n === version && ' (latest)'}
          </h2>
          <p className="admin-hint">
            {shown.note} by {shown.by || 'someone'}, {formatWhen(shown.at)}
          </p>
          <p className="conflict__title">{shown.title}</p>
          <pre className="conflict__text">{shown.content}</pre>
          <div className="admin-row">
            <button type="button" className="admin-button" onClick={() => setShown(null)}>
              All revisions
            </button>
            {shown.n !== version && (
              <button
                type="button"
                className="admin-button admin-button--primary"
                disabled={busy}
                onClick={() => void restore(shown.n)}
              >
                Restore this revision
              </button>
            )}
          </div>
        </section>
      ) : list === null ? (
        <p className="loading">Loading…</p>
      ) : (
        <ul className="posts">
          {list.map((rev) => (
            <li key={rev.n}>
              <button type="button" className="post-row" onClick={() => void view(rev.n)}>
                <span className="post-row__title">
                  {rev.n}. {rev.title || '(no title)'}
                </span>
                <span className="post-row__meta">
                  {rev.note} · {rev.by || 'someone'} · {formatWhen(rev.at)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
