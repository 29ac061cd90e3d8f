import { useState } from 'react';
import { StatusDraft, type Post } from '../../../gen/wire.gen';
import { useAction } from '../action';
import { api } from '../api';
import { fromLocalInput, toLocalInput, zeroTime } from '../datetime';
import { AdminError } from '../public/admin-error';
import type { SavedPost } from './use-autosave';
import { saveOf } from './use-save';

interface Props {
  /** The site's version of the post; null while it is not on the site. */
  post: Post | null;
  /** Whether publishing is offered: the post is on the site and no question is open. */
  ready: boolean;
  /** Saves what is pending and returns the saved post (use-autosave.ts). */
  whenSaved(): Promise<SavedPost>;
  /** Takes the post as publishing left it. */
  onPublished(post: Post): void;
}

/**
 * The editor's publishing: a draft is published now or scheduled; a post
 * on the site is updated with its edits, or unpublished. Each saves what
 * is pending first and acts on the saved version.
 */
export function Publishing({ post, ready, whenSaved, onPublished }: Props) {
  const { busy, error, run } = useAction();
  const [scheduling, setScheduling] = useState(false);
  const [scheduleAt, setScheduleAt] = useState('');

  async function act(action: 'publish' | 'unpublish', at = zeroTime) {
    await run(async () => {
      const saved = await whenSaved();
      const done = await api<Post>(
        'POST',
        `/posts/${encodeURIComponent(saved.id)}/${action}`,
        saveOf(saved.fields, saved.baseVersion, at),
      );
      onPublished(done);
      setScheduling(false);
    });
  }

  return (
    <>
      <AdminError>{error}</AdminError>
      {scheduling && (
        <div className="admin-row">
          <label className="admin-field admin-field--grow">
            <span>Publish at</span>
            <input
              type="datetime-local"
              step={1}
              value={scheduleAt}
              onChange={(e) => setScheduleAt(e.target.value)}
            />
          </label>
          <button
            type="button"
            className="admin-button admin-button--primary"
            disabled={busy || !scheduleAt}
            onClick={() => void act('publish', fromLocalInput(scheduleAt))}
          >
            Schedule
          </button>
        </div>
      )}
      {ready && (
        <div className="admin-row">
          {post?.status === StatusDraft || !post ? (
            <>
              <button
                type="button"
                className="admin-button admin-button--primary admin-button--grow"
                disabled={busy}
                onClick={() => void act('publish')}
              >
                Publish now
              </button>
              <button
                type="button"
                className="admin-button admin-button--grow"
                aria-expanded={scheduling}
                disabled={busy}
                onClick={() => {
                  setScheduleAt(toLocalInput(new Date(Date.now() + 3600_000).toISOString(), true));
                  setScheduling(!scheduling);
                }}
              >
                Schedule…
              </button>
            </>
          ) : (
            <>
              {post.changed && (
                <button
                  type="button"
                  className="admin-button admin-button--primary admin-button--grow"
                  disabled={busy}
                  onClick={() => void act('publish', post.date)}
                >
                  Update the site
                </button>
              )}
              <button
                type="button"
                className="admin-button admin-button--grow"
                disabled={busy}
                onClick={() => void act('unpublish')}
              >
                Unpublish
              </button>
            </>
          )}
        </div>
      )}
    </>
  );
}
