import type { ReactNode } from 'react';
import type { Conflict, PostFields } from '../../../gen/wire.gen';
import type { LocalCopy } from '../autosave';
import { formatWhen } from '../datetime';

interface WarnPanelProps {
  /** The panel's accessible name. */
  label: string;
  title: string;
  children: ReactNode;
}

/** A panel above the text that asks the writer to choose before going on. */
function WarnPanel({ label, title, children }: WarnPanelProps) {
  return (
    <section className="admin-panel admin-panel--warn" aria-label={label}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

interface OfferProps {
  offer: LocalCopy;
  onRestore(): void;
  onDiscard(): void;
}

/** The unsaved text this device kept of the post, offered back before anything else. */
export function UnsavedOffer({ offer, onRestore, onDiscard }: OfferProps) {
  return (
    <WarnPanel label="Unsaved text" title="Unsaved text on this phone">
      <p>
        This phone kept text that is not on the site ({formatWhen(offer.at)}): “
        {offer.fields.title || 'no title'}”, {offer.fields.content.length} characters.
      </p>
      <div className="admin-row">
        <button type="button" className="admin-button admin-button--primary" onClick={onRestore}>
          Restore unsaved text
        </button>
        <button type="button" className="admin-button" onClick={onDiscard}>
          Discard
        </button>
      </div>
    </WarnPanel>
  );
}

interface ConflictProps {
  conflict: Conflict;
  /** The writer's text now. */
  yours: PostFields;
  onKeep(which: 'theirs' | 'yours'): void;
}

/** Someone else saved the post meanwhile: both versions side by side, and which to keep. */
export function ConflictChooser({ conflict, yours, onKeep }: ConflictProps) {
  const { theirs } = conflict;
  return (
    <WarnPanel label="Conflict" title="Someone else saved this post">
      <p>
        {theirs.updatedBy || 'Someone'} saved it at {formatWhen(theirs.updatedAt)} while you were
        writing. Choose the text to keep; the other stays in the revisions.
      </p>
      <div className="conflict">
        <article className="conflict__side" aria-label="Theirs">
          <h3>Theirs</h3>
          <p className="conflict__title">{theirs.title}</p>
          <pre className="conflict__text">{theirs.content}</pre>
          <button type="button" className="admin-button" onClick={() => onKeep('theirs')}>
            Keep theirs
          </button>
        </article>
        <article className="conflict__side" aria-label="Yours">
          <h3>Yours</h3>
          <p className="conflict__title">{yours.title}</p>
          <pre className="conflict__text">{yours.content}</pre>
          <button
            type="button"
            className="admin-button admin-button--primary"
            onClick={() => onKeep('yours')}
          >
            Keep mine
          </button>
        </article>
      </div>
    </WarnPanel>
  );
}
