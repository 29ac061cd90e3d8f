// The editor's post: what it shows (draft.ts, a reducer), the text as of
// now for the save path (use-save.ts), and the writer's answers to its
// questions (unsaved text to restore, a conflict to settle).
import { useReducer, useRef } from 'react';
import type { Post, PostFields } from '../../../gen/wire.gen';
import { fieldsOf, newPostId, removeLocal, saveDelayMs, settleConflict } from '../autosave';
import { draftReducer, openDraft, type Draft } from './draft';
import type { Opening } from './open';
import { useSaving, type Now } from './use-save';

/** The post saved on the site, for an action on it (publishing, restoring). */
export interface SavedPost {
  id: string;
  baseVersion: number;
  fields: PostFields;
}

/** The editor's post and what the writer can do with it. */
export interface Autosave {
  draft: Draft;
  /** The text as of now (for an insertion at the cursor). */
  fieldsNow(): PostFields;
  change(next: PostFields): void;
  /** Saves what is pending (keepalive: as the page goes away). */
  save(keepalive?: boolean): Promise<void>;
  /** Saves what is pending and returns the saved post; throws when the site does not have the text yet. */
  whenSaved(): Promise<SavedPost>;
  restoreOffer(): void;
  discardOffer(): void;
  keep(which: 'theirs' | 'yours'): void;
  /** Takes the post the site changed: published (only its date may change), or a revision restored. */
  replaced(post: Post, how: 'published' | 'restored'): void;
}

/** Autosave of the post opening opens. */
export function useAutosave(opening: Opening): Autosave {
  const [draft, dispatch] = useReducer(draftReducer, opening, openDraft);
  const now = useRef<Now>({
    id: opening.id,
    baseVersion: opening.baseVersion,
    fields: opening.fields,
    dirty: opening.unsaved,
    blocked: opening.offer !== null,
  });
  const { save, later, keepLocal } = useSaving(now, dispatch);

  function change(next: PostFields) {
    const doc = now.current;
    doc.fields = next;
    dispatch({ type: 'edited', fields: next, blocked: doc.blocked });
    keepLocal(next);
    doc.dirty = true;
    if (!doc.blocked) later(saveDelayMs);
  }

  return {
    draft,
    fieldsNow: () => now.current.fields,
    change,
    save,
    async whenSaved() {
      await save();
      const { id, baseVersion, fields, dirty, blocked } = now.current;
      if (!id || dirty || blocked) {
        throw new Error('Save the post first: it is not saved on the site yet.');
      }
      return { id, baseVersion, fields };
    },
    restoreOffer() {
      const { offer } = draft;
      if (!offer) return;
      now.current.baseVersion = offer.baseVersion;
      now.current.blocked = false;
      dispatch({ type: 'offer-answered' });
      change(offer.fields);
      void save();
    },
    discardOffer() {
      removeLocal(localStorage, now.current.id ?? newPostId);
      now.current.blocked = false;
      dispatch({ type: 'offer-answered' });
    },
    keep(which) {
      const { conflict } = draft;
      if (!conflict) return;
      const doc = now.current;
      const settled = settleConflict(conflict, which, doc.fields);
      doc.baseVersion = settled.baseVersion;
      doc.blocked = false;
      if (settled.save) {
        dispatch({ type: 'conflict-settled' });
        change(settled.fields);
        void save();
      } else {
        doc.fields = settled.fields;
        doc.dirty = false;
        removeLocal(localStorage, conflict.theirs.id);
        dispatch({ type: 'conflict-settled', fields: settled.fields });
      }
    },
    replaced(post, how) {
      const doc = now.current;
      doc.baseVersion = post.version;
      if (how === 'published') {
        doc.fields = { ...doc.fields, date: post.date };
        dispatch({ type: 'replaced', post, fields: doc.fields });
        return;
      }
      doc.fields = fieldsOf(post);
      doc.dirty = false;
      removeLocal(localStorage, post.id);
      dispatch({ type: 'replaced', post, fields: doc.fields, state: 'saved' });
    },
  };
}
