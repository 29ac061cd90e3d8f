// Signing out of the console: the texts this device keeps unsaved (the
// editor's local copies, autosave.ts) go to the site first where they can,
// and none stays on the phone afterwards, for the next person who holds it.
import { useState } from 'react';
import type { Save } from '../../gen/wire.gen';
import { messageOf } from './api';
import {
  isConflict,
  localIds,
  newPostId,
  readLocal,
  removeLocal,
  sameFields,
  type LocalCopy,
} from './autosave';
import { zeroTime } from './datetime';
import { ApiError, request } from './public/api';

/** Calls the API as request does. */
export type Call = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** Saves copy, the local copy of post id, to the site; whether the site now has its text. */
async function saveDraft(id: string, copy: LocalCopy, call: Call): Promise<boolean> {
  const { fields } = copy;
  try {
    if (id !== newPostId) {
      const save: Save = { ...fields, baseVersion: copy.baseVersion, at: zeroTime };
      await call('PUT', `/posts/${encodeURIComponent(id)}`, save);
    } else if (fields.title.trim()) {
      await call('POST', '/posts', fields);
    } else {
      // A post needs a title; a blank one holds nothing to lose.
      return !fields.content.trim();
    }
    return true;
  } catch (err) {
    // A conflict with this very text: the editor saved it meanwhile.
    return err instanceof ApiError && isConflict(err.body) && sameFields(err.body.theirs, fields);
  }
}

/**
 * Saves to the site every post text storage keeps unsaved, and returns the
 * titles of those it could not save (a conflict, a refusal, no connection).
 */
export async function saveDrafts(storage: Storage, call: Call): Promise<string[]> {
  const unsaved: string[] = [];
  for (const id of localIds(storage)) {
    const copy = readLocal(storage, id);
    if (copy && !(await saveDraft(id, copy, call))) {
      unsaved.push(copy.fields.title.trim() || 'Untitled post');
    }
  }
  return unsaved;
}

/** Forgets every post text storage keeps. */
export function clearDrafts(storage: Storage): void {
  for (const id of localIds(storage)) removeLocal(storage, id);
}

/**
 * Ends the session (everywhere: every session of the member), then
 * forgets the drafts of storage. A session that had ended already counts
 * as ended; when the site cannot be reached, it rejects and the drafts stay.
 */
export async function endSession(storage: Storage, call: Call, everywhere: boolean): Promise<void> {
  try {
    await call('POST', everywhere ? '/signout/everywhere' : '/signout');
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 401)) throw err;
  }
  clearDrafts(storage);
}

/** Where signing out leaves the person. */
const signedOutPath = '/admin/signin';

/** A sign-out in progress: its state, and what the person may do next. */
export interface SignOut {
  busy: boolean;
  error: string;
  /** The titles of the drafts that could not be saved, while the person is asked; else null. */
  unsaved: string[] | null;
  /** Saves the drafts, then signs out, unless some could not be saved: then unsaved asks first. */
  start(): Promise<void>;
  /** Signs out, forgetting the drafts that could not be saved. */
  confirm(): Promise<void>;
  /** Stays signed in, drafts kept. */
  cancel(): void;
}

/** Signing out of the console (everywhere: every session of the member). */
export function useSignOut(everywhere: boolean): SignOut {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [unsaved, setUnsaved] = useState<string[] | null>(null);

  async function finish() {
    try {
      await endSession(localStorage, request, everywhere);
      window.location.assign(signedOutPath);
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  }

  async function start() {
    setBusy(true);
    setError('');
    const left = await saveDrafts(localStorage, request);
    if (left.length > 0) {
      setUnsaved(left);
      setBusy(false);
      return;
    }
    await finish();
  }

  async function confirm() {
    setUnsaved(null);
    setBusy(true);
    await finish();
  }

  return { busy, error, unsaved, start, confirm, cancel: () => setUnsaved(null) };
}
