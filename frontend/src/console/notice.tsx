import { useEffect, useState, type FormEvent } from 'react';
import type { Notice } from '../platform/wire.gen';
import { useAction } from './action';
import { api, messageOf } from './api';
import { formatWhen, fromLocalInput, isZeroTime, toLocalInput } from './datetime';
import { AdminError } from './public/admin-error';

/** Whether notice is showing now: it has text and has not expired. */
export function noticeShowing(notice: Notice | null, nowMs: number): boolean {
  return !!notice?.text && !isZeroTime(notice.until) && Date.parse(notice.until) > nowMs;
}

/** The expiry a new notice starts with: an hour from now. */
function inAnHour(): string {
  return toLocalInput(new Date(Date.now() + 3600_000).toISOString());
}

/** /admin/notice: the pit notice (one line, until a time) on the pit display and the site. */
export function NoticePage() {
  const [notice, setNoticeState] = useState<Notice | null>(null);
  const [showing, setShowing] = useState(false);
  const [text, setText] = useState('');
  const [until, setUntil] = useState(inAnHour);
  const { busy, error, setError, run } = useAction();

  /** Shows notice, and whether it is showing as of now. */
  function setNotice(next: Notice | null) {
    setNoticeState(next);
    setShowing(noticeShowing(next, Date.now()));
  }

  useEffect(() => {
    api<Notice>('GET', '/notice').then(setNotice, (err: unknown) => setError(messageOf(err)));
  }, [setError]);

  /** Runs call, then shows the notice it leaves (none once cleared). */
  async function change(call: () => Promise<Notice | undefined>) {
    await run(async () => setNotice((await call()) ?? null));
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    void change(async () => {
      const set = await api<Notice>('PUT', '/notice', {
        text: text.trim(),
        until: fromLocalInput(until),
      });
      setText('');
      return set;
    });
  }

  return (
    <div className="console-page">
      <h1>Pit notice</h1>
      <p className="admin-hint">
        One short line on the pit display and the site, until the time you set.
      </p>
      <section className="admin-panel" aria-label="Current notice">
        {showing && notice ? (
          <>
            <p className="notice-now">“{notice.text}”</p>
            <p className="admin-hint">
              Until {formatWhen(notice.until)}
              {notice.by && ` · set by ${notice.by}`}
            </p>
            <button
              type="button"
              className="admin-button"
              disabled={busy}
              onClick={() =>
                void change(async () => {
                  await api('DELETE', '/notice');
                  return undefined;
                })
              }
            >
              Clear the notice
            </button>
          </>
        ) : (
          <p>No notice is showing.</p>
        )}
      </section>
      <form className="console-form" onSubmit={submit}>
        <label className="admin-field">
          <span>Notice</span>
          <input
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="Team at the practice field until 14:30"
            maxLength={200}
            required
          />
        </label>
        <label className="admin-field">
          <span>Until</span>
          <input
            type="datetime-local"
            value={until}
            onChange={(e) => setUntil(e.target.value)}
            required
          />
        </label>
        <AdminError>{error}</AdminError>
        <div className="console-actions">
          <button
            type="submit"
            className="admin-button admin-button--primary admin-button--big"
            disabled={busy}
          >
            Show the notice
          </button>
        </div>
      </form>
    </div>
  );
}
