// What the editor shows of its post, as a reducer: the text, the site's
// version, where the text stands with the site, and the questions to the
// writer (unsaved text to restore, a conflict to settle). use-autosave.ts
// dispatches; the editor's pieces render it.
import type { Conflict, Post, PostFields } from '../../../gen/wire.gen';
import type { LocalCopy, SaveState } from '../autosave';
import type { Opening } from './open';

/** The editor's view of its post. */
export interface Draft {
  /** The post's id; null until a new post is on the site. */
  id: string | null;
  /** The site's latest version as the editor knows it; null for a new post. */
  post: Post | null;
  fields: PostFields;
  state: SaveState;
  /** The site's sentence when it refused the text (state 'refused'), else ''. */
  refusal: string;
  /** Unsaved text of this device to restore or discard first; null when none. */
  offer: LocalCopy | null;
  /** Someone else's save to settle first; null when none. */
  conflict: Conflict | null;
}

/** What happens to the draft. */
export type DraftEvent =
  /** The writer changed the text; while a question is open it is kept but not saved. */
  | { type: 'edited'; fields: PostFields; blocked: boolean }
  /** Where the text stands now (saving, untitled, local: kept on this device). */
  | { type: 'state'; state: SaveState }
  /** The site saved the text as post; state says whether more waits. */
  | { type: 'saved'; post: Post; state: SaveState }
  | { type: 'refused'; refusal: string }
  | { type: 'conflict'; conflict: Conflict }
  /** The offer was answered (restored or discarded). */
  | { type: 'offer-answered' }
  /** The conflict was settled: their version is the site's; fields when theirs was kept. */
  | { type: 'conflict-settled'; fields?: PostFields }
  /** The site changed the post (published it, restored a revision): its fields when they changed too. */
  | { type: 'replaced'; post: Post; fields: PostFields; state?: SaveState };

/** The draft of a post as it opens. */
export function openDraft(opening: Opening): Draft {
  return {
    id: opening.id,
    post: opening.post,
    fields: opening.fields,
    state: opening.unsaved ? 'local' : 'saved',
    refusal: '',
    offer: opening.offer,
    conflict: null,
  };
}

/** The draft after event. */
export function draftReducer(draft: Draft, event: DraftEvent): Draft {
  switch (event.type) {
    case 'edited':
      return { ...draft, fields: event.fields, state: event.blocked ? draft.state : 'pending' };
    case 'state':
      return { ...draft, state: event.state };
    case 'saved':
      return { ...draft, id: event.post.id, post: event.post, state: event.state, refusal: '' };
    case 'refused':
      return { ...draft, state: 'refused', refusal: event.refusal };
    case 'conflict':
      return { ...draft, state: 'conflict', conflict: event.conflict };
    case 'offer-answered':
      return { ...draft, offer: null };
    case 'conflict-settled': {
      if (!draft.conflict) return draft;
      const settled = { ...draft, post: draft.conflict.theirs, conflict: null };
      return event.fields ? { ...settled, fields: event.fields, state: 'saved' } : settled;
    }
    case 'replaced':
      return {
        ...draft,
        post: event.post,
        fields: event.fields,
        state: event.state ?? draft.state,
      };
  }
}
