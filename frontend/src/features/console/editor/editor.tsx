import { useState } from 'react';
import { Link, useLoaderData } from 'react-router';
import { StatusDraft } from '../../../gen/wire.gen';
import { newPostId, saveStateLabel } from '../autosave';
import { formatWhen } from '../datetime';
import { PageError } from '../page-error';
import type { PageRoute } from '../public/routes';
import { statusLabel } from '../status';
import { ConflictChooser, UnsavedOffer } from './conflict';
import { editorLoader, editorShouldRevalidate, type Opening } from './open';
import { PostForm } from './post-form';
import { Preview } from './preview';
import { Publishing } from './publishing';
import { Revisions } from './revisions';
import { useAutosave, type Autosave } from './use-autosave';

type Tab = 'write' | 'preview' | 'revisions';

const tabs: [Tab, string][] = [
  ['write', 'Write'],
  ['preview', 'Preview'],
  ['revisions', 'Revisions'],
];

/** The line under the text: where it stands with the site, and a retry when it could not go. */
function SaveLine({ draft, save }: Pick<Autosave, 'draft' | 'save'>) {
  const { state, refusal } = draft;
  return (
    <p className="editor__saved" role="status" data-state={state}>
      {saveStateLabel(state)}
      {refusal && `: ${refusal}`}
      {(state === 'local' || state === 'refused') && (
        <button
          type="button"
          className="admin-button admin-button--small"
          onClick={() => void save()}
        >
          Retry
        </button>
      )}
    </p>
  );
}

/**
 * The editor of the post opening opens: its text (kept on this device at
 * once, saved to the site by itself: use-autosave.ts), a preview, its
 * revisions, and publishing. Unsaved text of this device, or a conflict
 * with someone else's save, is answered first.
 */
export function Editor({ opening }: { opening: Opening }) {
  const autosave = useAutosave(opening);
  const { draft } = autosave;
  const [tab, setTab] = useState<Tab>('write');
  const { id, post, fields, offer, conflict } = draft;
  const asking = !!offer || !!conflict;
  return (
    <div className="console-page editor">
      <div className="editor__top">
        <Link to="/admin" className="admin-back">
          ← Posts
        </Link>
        <span className="editor__status" data-status={post?.status ?? StatusDraft}>
          {post ? statusLabel(post, formatWhen) : 'New post, not on the site yet'}
        </span>
      </div>

      {offer && (
        <UnsavedOffer
          offer={offer}
          onRestore={autosave.restoreOffer}
          onDiscard={autosave.discardOffer}
        />
      )}
      {conflict && <ConflictChooser conflict={conflict} yours={fields} onKeep={autosave.keep} />}

      {!asking && (
        <>
          <div className="admin-tabs" role="tablist" aria-label="Editor">
            {tabs.map(([key, label]) => (
              <button
                key={key}
                type="button"
                role="tab"
                aria-selected={tab === key}
                className="admin-tab"
                disabled={key === 'revisions' && !id}
                onClick={() => setTab(key)}
              >
                {label}
              </button>
            ))}
          </div>
          {tab === 'write' && (
            <PostForm fields={fields} fieldsNow={autosave.fieldsNow} onChange={autosave.change} />
          )}
          {tab === 'preview' && <Preview fields={fields} />}
          {tab === 'revisions' && id && post && (
            <Revisions
              id={id}
              version={post.version}
              beforeRestore={async () => (await autosave.whenSaved()).baseVersion}
              onRestored={(done) => {
                autosave.replaced(done, 'restored');
                setTab('write');
              }}
            />
          )}
        </>
      )}

      <div className="console-actions editor__actions">
        <SaveLine draft={draft} save={autosave.save} />
        <Publishing
          post={post}
          ready={!!id && !asking}
          whenSaved={autosave.whenSaved}
          onPublished={(done) => autosave.replaced(done, 'published')}
        />
      </div>
    </div>
  );
}

/**
 * /admin/posts/:id (id "new" for a new post): the editor of the post its
 * loader opened. A post opened anew is a new editor; a new post that takes
 * its address once created stays in its editor (open.ts).
 */
function EditorPage() {
  const opening = useLoaderData<typeof editorLoader>();
  return <Editor key={opening.id ?? newPostId} opening={opening} />;
}

/** The editor's route. */
export const route: PageRoute = {
  Component: EditorPage,
  loader: editorLoader,
  shouldRevalidate: editorShouldRevalidate,
  ErrorBoundary: PageError,
};
