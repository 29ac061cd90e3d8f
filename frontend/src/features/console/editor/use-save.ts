// The editor's save path: the text goes to the site on top of the version
// it is based on; what the site has not taken stays on this device and is
// tried again (no connection), or waits for the writer (a conflict, a
// refusal). Saves also when the page is hidden or closed, and as soon as
// the network is back.
import { useCallback, useEffect, useRef, type Dispatch, type MutableRefObject } from 'react';
import { useNavigate } from 'react-router';
import type { Post, PostFields, Save } from '../../../gen/wire.gen';
import { api } from '../api';
import {
  isConflict,
  newPostId,
  removeLocal,
  sameFields,
  saveDelayMs,
  writeLocal,
} from '../autosave';
import { zeroTime } from '../datetime';
import { ApiError } from '../public/api';
import type { DraftEvent } from './draft';

/** How soon a save that could not reach the site tries again by itself. */
const retryDelayMs = 10_000;

/** A Save of fields on top of baseVersion. */
export function saveOf(fields: PostFields, baseVersion: number, at = zeroTime): Save {
  return { ...fields, baseVersion, at };
}

/** What the save path reads: the post as of now, not as of a render. */
export interface Now {
  id: string | null;
  baseVersion: number;
  fields: PostFields;
  /** Whether the text has changes the site does not have. */
  dirty: boolean;
  /** Whether saving waits for the writer (an offer or a conflict to answer). */
  blocked: boolean;
}

/** The save path of an editor's post. */
export interface Saving {
  /** Saves what is pending (keepalive: as the page goes away). */
  save(keepalive?: boolean): Promise<void>;
  /** Saves after ms, unless something saves before. */
  later(ms: number): void;
  /** Keeps fields on this device as the post's unsaved text. */
  keepLocal(fields: PostFields): void;
}

/** The save path of the post whose state is nowRef, telling dispatch where the text stands. */
export function useSaving(nowRef: MutableRefObject<Now>, dispatch: Dispatch<DraftEvent>): Saving {
  const navigate = useNavigate();
  // The latest save, for the timers and the save that waits for another.
  const saveRef = useRef<(keepalive?: boolean) => Promise<void>>(() => Promise.resolve());
  const inflight = useRef<Promise<void> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const later = useCallback((ms: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void saveRef.current(), ms);
  }, []);

  const keepLocal = useCallback(
    (fields: PostFields) => {
      const { id, baseVersion } = nowRef.current;
      writeLocal(localStorage, id ?? newPostId, {
        fields,
        baseVersion,
        at: new Date().toISOString(),
      });
    },
    [nowRef],
  );

  const save = useCallback(
    (keepalive = false): Promise<void> => {
      clearTimeout(timer.current);
      const doc = nowRef.current;
      if (inflight.current) {
        return inflight.current.then(() => (doc.dirty ? saveRef.current(keepalive) : undefined));
      }
      if (!doc.dirty || doc.blocked) return Promise.resolve();
      const { id, fields: sent } = doc;
      if (!id && !sent.title.trim()) {
        dispatch({ type: 'state', state: 'untitled' });
        return Promise.resolve();
      }
      // A new post is not created as the page goes away: its answer would be lost.
      if (!id && keepalive) return Promise.resolve();
      doc.dirty = false;
      dispatch({ type: 'state', state: 'saving' });
      const run = async () => {
        try {
          const saved = id
            ? await api<Post>(
                'PUT',
                `/posts/${encodeURIComponent(id)}`,
                saveOf(sent, doc.baseVersion),
                {
                  keepalive,
                },
              )
            : await api<Post>('POST', '/posts', sent);
          doc.baseVersion = saved.version;
          if (!id) {
            removeLocal(localStorage, newPostId);
            doc.id = saved.id;
            void navigate(`/admin/posts/${encodeURIComponent(saved.id)}`, { replace: true });
          }
          if (sameFields(doc.fields, sent)) {
            removeLocal(localStorage, saved.id);
            dispatch({ type: 'saved', post: saved, state: doc.dirty ? 'pending' : 'saved' });
          } else {
            doc.dirty = true;
            keepLocal(doc.fields);
            dispatch({ type: 'saved', post: saved, state: 'pending' });
            later(saveDelayMs);
          }
        } catch (err) {
          doc.dirty = true;
          if (err instanceof ApiError && err.status === 409 && isConflict(err.body)) {
            doc.blocked = true;
            dispatch({ type: 'conflict', conflict: err.body });
          } else if (err instanceof ApiError && err.status < 500 && err.status !== 401) {
            dispatch({ type: 'refused', refusal: err.message });
          } else {
            dispatch({ type: 'state', state: 'local' });
            later(retryDelayMs);
          }
        }
      };
      inflight.current = run().finally(() => {
        inflight.current = null;
      });
      return inflight.current;
    },
    [keepLocal, later, navigate, nowRef, dispatch],
  );

  useEffect(() => {
    saveRef.current = save;
  }, [save]);

  // Saves when the page is hidden or closed, and as soon as the network is back.
  useEffect(() => {
    const hidden = () => {
      if (document.visibilityState === 'hidden') void save(true);
    };
    const flush = () => void save(true);
    const online = () => void save();
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('pagehide', flush);
    window.addEventListener('online', online);
    return () => {
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('pagehide', flush);
      window.removeEventListener('online', online);
      clearTimeout(timer.current);
    };
  }, [save]);

  return { save, later, keepLocal };
}
