import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  StatusDraft,
  type Conflict,
  type Post,
  type PostFields,
  type Save,
} from '../platform/wire.gen';
import { useAction } from './action';
import { api, messageOf } from './api';
import {
  decideOnOpen,
  fieldsOf,
  isConflict,
  newPostId,
  readLocal,
  removeLocal,
  sameFields,
  saveDelayMs,
  saveStateLabel,
  settleConflict,
  writeLocal,
  type LocalCopy,
  type SaveState,
} from './autosave';
import { formatWhen, fromLocalInput, toLocalInput, zeroTime } from './datetime';
import { PhotoButton } from './photo-button';
import { Preview } from './preview';
import { AdminError } from './public/admin-error';
import { ApiError, NetworkError } from './public/api';
import { Revisions } from './revisions';
import { statusLabel } from './status';
import { insertAtCursor } from './text';

/** How soon a save that could not reach the site tries again by itself. */
const retryDelayMs = 10_000;

/** The fields of a new post: no text, dated now. */
function blankFields(): PostFields {
  const now = new Date();
  now.setSeconds(0, 0);
  return { title: '', date: now.toISOString(), content: '' };
}

/** A Save of fields on top of baseVersion. */
function saveOf(fields: PostFields, baseVersion: number, at = zeroTime): Save {
  return { ...fields, baseVersion, at };
}

type Tab = 'write' | 'preview' | 'revisions';

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

/**
 * /admin/posts/:id (id "new" for a new post): the editor. Every change is
 * kept on this device at once and goes to the site saveDelayMs after typing
 * stops, and when the page is hidden or closed; what could not be saved
 * stays here and is offered back when the post is opened again.
 */
export function Editor() {
  const { id: routeId = newPostId } = useParams();
  const navigate = useNavigate();
  const [post, setPost] = useState<Post | null>(null);
  const [fields, setFields] = useState<PostFields>(blankFields);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState('');
  const [state, setState] = useState<SaveState>('saved');
  const [refusal, setRefusal] = useState('');
  const [offer, setOffer] = useState<LocalCopy | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [tab, setTab] = useState<Tab>('write');
  const { busy, error: actionError, run } = useAction();
  const [scheduling, setScheduling] = useState(false);
  const [scheduleAt, setScheduleAt] = useState('');

  // What the save path reads: the state as of now, not of a render.
  const idRef = useRef<string | null>(null);
  // The post's id for rendering (idRef's value as of the last change of it).
  const [postId, setPostId] = useState<string | null>(null);
  // The latest save, for the timers and the save that waits for another.
  const saveRef = useRef<(keepalive?: boolean) => Promise<void>>(() => Promise.resolve());
  const baseRef = useRef(0);
  const fieldsRef = useRef<PostFields>(fields);
  const dirtyRef = useRef(false);
  const blockedRef = useRef(false);
  const inflight = useRef<Promise<void> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const textarea = useRef<HTMLTextAreaElement>(null);

  const keepLocal = useCallback((next: PostFields) => {
    writeLocal(localStorage, idRef.current ?? newPostId, {
      fields: next,
      baseVersion: baseRef.current,
      at: new Date().toISOString(),
    });
  }, []);

  const save = useCallback(
    (keepalive = false): Promise<void> => {
      clearTimeout(timer.current);
      if (inflight.current) {
        return inflight.current.then(() =>
          dirtyRef.current ? saveRef.current(keepalive) : undefined,
        );
      }
      if (!dirtyRef.current || blockedRef.current) return Promise.resolve();
      const id = idRef.current;
      const sent = fieldsRef.current;
      if (!id && !sent.title.trim()) {
        setState('untitled');
        return Promise.resolve();
      }
      // A new post is not created as the page goes away: its answer would be lost.
      if (!id && keepalive) return Promise.resolve();
      dirtyRef.current = false;
      setState('saving');
      const run = async () => {
        try {
          const saved = id
            ? await api<Post>(
                'PUT',
                `/posts/${encodeURIComponent(id)}`,
                saveOf(sent, baseRef.current),
                {
                  keepalive,
                },
              )
            : await api<Post>('POST', '/posts', sent);
          baseRef.current = saved.version;
          setPost(saved);
          if (!id) {
            removeLocal(localStorage, newPostId);
            idRef.current = saved.id;
            setPostId(saved.id);
            navigate(`/admin/posts/${encodeURIComponent(saved.id)}`, { replace: true });
          }
          if (sameFields(fieldsRef.current, sent)) {
            removeLocal(localStorage, saved.id);
            setState(dirtyRef.current ? 'pending' : 'saved');
          } else {
            dirtyRef.current = true;
            keepLocal(fieldsRef.current);
            setState('pending');
            timer.current = setTimeout(() => void saveRef.current(), saveDelayMs);
          }
          setRefusal('');
        } catch (err) {
          dirtyRef.current = true;
          if (err instanceof ApiError && err.status === 409 && isConflict(err.body)) {
            blockedRef.current = true;
            setConflict(err.body);
            setState('conflict');
          } else if (err instanceof ApiError && err.status < 500 && err.status !== 401) {
            setRefusal(err.message);
            setState('refused');
          } else {
            setState('local');
            timer.current = setTimeout(() => void saveRef.current(), retryDelayMs);
          }
        }
      };
      inflight.current = run().finally(() => {
        inflight.current = null;
      });
      return inflight.current;
    },
    [keepLocal, navigate],
  );

  // Opens the post: the site's latest, and the unsaved text of this device.
  useEffect(() => {
    if (idRef.current !== null && routeId === idRef.current) return; // our own navigation after creating it
    let current = true;
    const id = routeId === newPostId ? null : routeId;
    idRef.current = id;
    setPostId(id);
    setLoading(true);
    const open = (server: Post | null) => {
      if (!current) return;
      const local = readLocal(localStorage, id ?? newPostId);
      const decision = decideOnOpen(local, server);
      const shown = server ? fieldsOf(server) : blankFields();
      setPost(server);
      baseRef.current = server?.version ?? 0;
      fieldsRef.current = shown;
      setFields(shown);
      dirtyRef.current = false;
      setState('saved');
      if (decision.kind === 'clean' && decision.forget) removeLocal(localStorage, id ?? newPostId);
      blockedRef.current = decision.kind === 'offer';
      setOffer(decision.kind === 'offer' ? decision.local : null);
      setLoading(false);
    };
    if (!id) {
      open(null);
    } else {
      api<Post>('GET', `/posts/${encodeURIComponent(id)}`).then(open, (err: unknown) => {
        if (!current) return;
        const local = readLocal(localStorage, id);
        if (err instanceof NetworkError && local) {
          // Offline: the text of this device, to save once the site answers.
          baseRef.current = local.baseVersion;
          fieldsRef.current = local.fields;
          setFields(local.fields);
          dirtyRef.current = true;
          setState('local');
          setLoading(false);
          return;
        }
        setLoadError(messageOf(err));
        setLoading(false);
      });
    }
    return () => {
      current = false;
    };
  }, [routeId]);

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

  function change(next: PostFields) {
    fieldsRef.current = next;
    setFields(next);
    keepLocal(next);
    dirtyRef.current = true;
    if (blockedRef.current) return;
    setState('pending');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void saveRef.current(), saveDelayMs);
  }

  function restoreOffer() {
    if (!offer) return;
    baseRef.current = offer.baseVersion;
    blockedRef.current = false;
    setOffer(null);
    change(offer.fields);
    void save();
  }

  function discardOffer() {
    removeLocal(localStorage, idRef.current ?? newPostId);
    blockedRef.current = false;
    setOffer(null);
  }

  function keep(which: 'theirs' | 'yours') {
    if (!conflict) return;
    const settled = settleConflict(conflict, which, fieldsRef.current);
    baseRef.current = settled.baseVersion;
    blockedRef.current = false;
    setConflict(null);
    setPost(conflict.theirs);
    if (settled.save) {
      change(settled.fields);
      void save();
    } else {
      fieldsRef.current = settled.fields;
      setFields(settled.fields);
      dirtyRef.current = false;
      removeLocal(localStorage, conflict.theirs.id);
      setState('saved');
    }
  }

  /** Saves what is pending, then runs a publishing action on the saved version. */
  async function act(action: 'publish' | 'unpublish', at = zeroTime) {
    const id = idRef.current;
    if (!id) return;
    await run(async () => {
      await save();
      if (dirtyRef.current || blockedRef.current) {
        throw new Error('Save the post first: it is not saved on the site yet.');
      }
      const done = await api<Post>(
        'POST',
        `/posts/${encodeURIComponent(id)}/${action}`,
        saveOf(fieldsRef.current, baseRef.current, at),
      );
      baseRef.current = done.version;
      setPost(done);
      fieldsRef.current = { ...fieldsRef.current, date: done.date };
      setFields(fieldsRef.current);
      setScheduling(false);
    });
  }

  function restored(done: Post) {
    baseRef.current = done.version;
    setPost(done);
    fieldsRef.current = fieldsOf(done);
    setFields(fieldsRef.current);
    dirtyRef.current = false;
    removeLocal(localStorage, done.id);
    setState('saved');
    setTab('write');
  }

  function insertPhoto(markdown: string) {
    const el = textarea.current;
    const content = fieldsRef.current.content;
    const start = el?.selectionStart ?? content.length;
    const end = el?.selectionEnd ?? content.length;
    const out = insertAtCursor(content, start, end, markdown);
    change({ ...fieldsRef.current, content: out.text });
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(out.cursor, out.cursor);
    });
  }

  if (loading) return <p className="loading">Loading…</p>;
  if (loadError) {
    return (
      <div className="console-page">
        <AdminError>{loadError}</AdminError>
        <Link to="/admin">Back to the posts</Link>
      </div>
    );
  }

  const id = postId;
  const status = post ? statusLabel(post, formatWhen) : 'New post, not on the site yet';
  return (
    <div className="console-page editor">
      <div className="editor__top">
        <Link to="/admin" className="admin-back">
          ← Posts
        </Link>
        <span className="editor__status" data-status={post?.status ?? StatusDraft}>
          {status}
        </span>
      </div>

      {offer && (
        <WarnPanel label="Unsaved text" title="Unsaved text on this phone">
          <p>
            This phone kept text that is not on the site ({formatWhen(offer.at)}): “
            {offer.fields.title || 'no title'}”, {offer.fields.content.length} characters.
          </p>
          <div className="admin-row">
            <button
              type="button"
              className="admin-button admin-button--primary"
              onClick={restoreOffer}
            >
              Restore unsaved text
            </button>
            <button type="button" className="admin-button" onClick={discardOffer}>
              Discard
            </button>
          </div>
        </WarnPanel>
      )}

      {conflict && (
        <WarnPanel label="Conflict" title="Someone else saved this post">
          <p>
            {conflict.theirs.updatedBy || 'Someone'} saved it at{' '}
            {formatWhen(conflict.theirs.updatedAt)} while you were writing. Choose the text to keep;
            the other stays in the revisions.
          </p>
          <div className="conflict">
            <article className="conflict__side" aria-label="Theirs">
              <h3>Theirs</h3>
              <p className="conflict__title">{conflict.theirs.title}</p>
              <pre className="conflict__text">{conflict.theirs.content}</pre>
              <button type="button" className="admin-button" onClick={() => keep('theirs')}>
                Keep theirs
              </button>
            </article>
            <article className="conflict__side" aria-label="Yours">
              <h3>Yours</h3>
              <p className="conflict__title">{fields.title}</p>
              <pre className="conflict__text">{fields.content}</pre>
              <button
                type="button"
                className="admin-button admin-button--primary"
                onClick={() => keep('yours')}
              >
                Keep mine
              </button>
            </article>
          </div>
        </WarnPanel>
      )}

      {!offer && !conflict && (
        <>
          <div className="admin-tabs" role="tablist" aria-label="Editor">
            {(
              [
                ['write', 'Write'],
                ['preview', 'Preview'],
                ['revisions', 'Revisions'],
              ] as [Tab, string][]
            ).map(([key, label]) => (
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
            <div className="editor__form" role="tabpanel" aria-label="Write">
              <label className="admin-field">
                <span>Title</span>
                <input
                  value={fields.title}
                  onChange={(e) => change({ ...fields, title: e.target.value })}
                  placeholder="What happened?"
                />
              </label>
              <label className="admin-field">
                <span>Date</span>
                <input
                  type="datetime-local"
                  value={toLocalInput(fields.date)}
                  onChange={(e) => change({ ...fields, date: fromLocalInput(e.target.value) })}
                />
              </label>
              <label className="admin-field">
                <span>Text (markdown)</span>
                <textarea
                  ref={textarea}
                  className="editor__text"
                  value={fields.content}
                  onChange={(e) => change({ ...fields, content: e.target.value })}
                  rows={12}
                />
              </label>
              <PhotoButton onUploaded={insertPhoto} />
            </div>
          )}
          {tab === 'preview' && <Preview fields={fields} />}
          {tab === 'revisions' && id && post && (
            <Revisions
              id={id}
              version={post.version}
              beforeRestore={async () => {
                await save();
                if (dirtyRef.current || blockedRef.current) {
                  throw new Error('Save the post first: it is not saved on the site yet.');
                }
                return baseRef.current;
              }}
              onRestored={restored}
            />
          )}
        </>
      )}

      <div className="console-actions editor__actions">
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
        <AdminError>{actionError}</AdminError>
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
        {id && !offer && !conflict && (
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
                    setScheduleAt(
                      toLocalInput(new Date(Date.now() + 3600_000).toISOString(), true),
                    );
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
      </div>
    </div>
  );
}
