import { useState, type FormEvent } from 'react';
import { useLoaderData } from 'react-router';
import type { Notice } from '../../gen/wire.gen';
import { api } from './api';
import { formatWhen, fromLocalInput, isZeroTime, toLocalInput } from './datetime';
import { PageError } from './page-error';
import { AdminError } from './public/admin-error';
import type { PageRoute } from './public/routes';
import { consoleAction, unlessRefused, useRouteAction } from './route-action';

/** Whether notice is showing now: it has text and has not expired. */
export function noticeShowing(notice: Notice | null, nowMs: number): boolean {
  return !!notice?.text && !isZeroTime(notice.until) && Date.parse(notice.until) > nowMs;
}

/** The expiry a new notice starts with: an hour from now. */
function inAnHour(): string {
  return toLocalInput(new Date(Date.now() + 3600_000).toISOString());
}

/** The notice as the page shows it: the site's, and whether it is showing as of loading it. */
interface Shown {
  notice: Notice;
  showing: boolean;
}

/** Loads the notice. */
async function noticeLoader(): Promise<Shown> {
  const notice = await api<Notice>('GET', '/notice');
  return { notice, showing: noticeShowing(notice, Date.now()) };
}

/** What the page asks its action: show a notice until a time (a local date-time input's value), or clear it. */
type NoticeChange = { intent: 'set'; text: string; until: string } | { intent: 'clear' };

/** Sets the notice, answering it, or clears it (the loader then shows what it left). */
const noticeAction = consoleAction<NoticeChange, Notice | null>(async (change) => {
  if (change.intent === 'clear') {
    await api('DELETE', '/notice');
    return null;
  }
  return api<Notice>('PUT', '/notice', {
    text: change.text.trim(),
    until: fromLocalInput(change.until),
  });
});

/** /admin/notice: the pit notice (one line, until a time) on the pit display and the site. */
export function NoticePage() {
  const { notice, showing } = useLoaderData<typeof noticeLoader>();
  const [text, setText] = useState('');
  const [until, setUntil] = useState(inAnHour);
  const { busy, error, done, submit } = useRouteAction<NoticeChange, Notice | null>();

  function show(e: FormEvent) {
    e.preventDefault();
    submit({ intent: 'set', text, until });
  }

  // A notice set empties the box, once.
  const [lastSet, setLastSet] = useState(done);
  if (lastSet !== done) {
    setLastSet(done);
    if (done) setText('');
  }

  return (
    <div className="console-page">
      <h1>Pit notice</h1>
      <p className="admin-hint">
        One short line on the pit display and the site, until the time you set.
      </p>
      <section className="admin-panel" aria-label="Current notice">
        {showing ? (
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
              onClick={() => submit({ intent: 'clear' })}
            >
              Clear the notice
            </button>
          </>
        ) : (
          <p>No notice is showing.</p>
        )}
      </section>
      <form className="console-form" onSubmit={show}>
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

/** The notice's route. */
export const route: PageRoute = {
  Component: NoticePage,
  loader: noticeLoader,
  action: noticeAction,
  shouldRevalidate: unlessRefused,
  ErrorBoundary: PageError,
};
