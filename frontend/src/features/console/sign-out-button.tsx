import type { ReactNode } from 'react';
import { AdminError } from './public/admin-error';
import { useSignOut } from './sign-out';

interface Props {
  /** Ends every session of the member, not only this one. */
  everywhere: boolean;
  className: string;
  children: ReactNode;
}

/**
 * A button that signs out (sign-out.ts): drafts saved first, and when some
 * cannot be, a question before they are forgotten.
 */
export function SignOutButton({ everywhere, className, children }: Props) {
  const { busy, error, unsaved, start, confirm, cancel } = useSignOut(everywhere);
  return (
    <>
      <button type="button" className={className} disabled={busy} onClick={() => void start()}>
        {children}
      </button>
      {error && (
        <div className="admin-panel sign-out-question">
          <AdminError>{error}</AdminError>
        </div>
      )}
      {unsaved && (
        <section
          className="admin-panel admin-panel--warn sign-out-question"
          role="alertdialog"
          aria-labelledby="sign-out-title"
        >
          <h2 id="sign-out-title">Unsaved text on this phone</h2>
          <p>
            The site did not take {unsaved.length === 1 ? 'this post' : 'these posts'}:{' '}
            {unsaved.map((title) => `“${title}”`).join(', ')}. Signing out deletes the text from
            this phone.
          </p>
          <div className="admin-row">
            <button
              type="button"
              className="admin-button admin-button--danger"
              onClick={() => void confirm()}
            >
              Sign out and delete it
            </button>
            <button type="button" className="admin-button" onClick={cancel}>
              Stay signed in
            </button>
          </div>
        </section>
      )}
    </>
  );
}
