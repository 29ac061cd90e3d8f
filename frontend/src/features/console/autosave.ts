// Autosave's decisions, apart from the editor that renders them: the copy
// of a post kept on this device, whether it is worth offering back, and how
// a conflict is settled.
import type { Conflict, Post, PostFields } from '../../gen/wire.gen';

/** What this device keeps of a post while it is not saved on the site. */
export interface LocalCopy {
  fields: PostFields;
  /** The version of the post the text started from (0 for a post not yet on the site). */
  baseVersion: number;
  /** When it was written, as an ISO time. */
  at: string;
}

/** The id under which a new post, not yet on the site, is kept. */
export const newPostId = 'new';

/** How long after the last key stroke the text goes to the site. */
export const saveDelayMs = 2000;

/** The storage key of the local copy of post id (newPostId for a new post). */
export function localKey(id: string): string {
  return `rh-console:post:${id}`;
}

/** Whether value is a LocalCopy, as this console writes them. */
function isLocalCopy(value: unknown): value is LocalCopy {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<LocalCopy>;
  const f = v.fields as Partial<PostFields> | undefined;
  return (
    typeof v.baseVersion === 'number' &&
    typeof v.at === 'string' &&
    !!f &&
    typeof f.title === 'string' &&
    typeof f.date === 'string' &&
    typeof f.content === 'string'
  );
}

/** Returns the local copy of post id, or null when there is none (or it cannot be read). */
export function readLocal(storage: Storage, id: string): LocalCopy | null {
  try {
    const raw = storage.getItem(localKey(id));
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    return isLocalCopy(value) ? value : null;
  } catch {
    return null;
  }
}

/** Keeps copy as the local copy of post id; false when the device refused (storage full or off). */
export function writeLocal(storage: Storage, id: string, copy: LocalCopy): boolean {
  try {
    storage.setItem(localKey(id), JSON.stringify(copy));
    return true;
  } catch {
    return false;
  }
}

/** Forgets the local copy of post id. */
export function removeLocal(storage: Storage, id: string): void {
  try {
    storage.removeItem(localKey(id));
  } catch {
    // Nothing kept, nothing to forget.
  }
}

/** The ids of the posts this device holds unsaved text of. */
export function localIds(storage: Storage): string[] {
  const prefix = localKey('');
  const ids: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith(prefix)) ids.push(key.slice(prefix.length));
  }
  return ids.sort();
}

/** The fields of post an editor writes. */
export function fieldsOf(post: PostFields): PostFields {
  return { title: post.title, date: post.date, content: post.content };
}

/** Whether two ISO times are the same moment (the server may write them another way). */
function sameTime(a: string, b: string): boolean {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  return Number.isNaN(ta) || Number.isNaN(tb) ? a === b : ta === tb;
}

/** Whether a and b say the same. */
export function sameFields(a: PostFields, b: PostFields): boolean {
  return a.title === b.title && a.content === b.content && sameTime(a.date, b.date);
}

/** What opening a post does with the local copy. */
export type OpenDecision =
  /** Nothing to offer: show the site's version (and forget the local copy, if any). */
  | { kind: 'clean'; forget: boolean }
  /** The local copy holds text the site does not have: offer to restore it. */
  | { kind: 'offer'; local: LocalCopy };

/**
 * Decides what opening a post does: server is the site's latest version
 * (null for a new post), local the copy this device kept.
 */
export function decideOnOpen(local: LocalCopy | null, server: Post | null): OpenDecision {
  if (!local) return { kind: 'clean', forget: false };
  if (server ? sameFields(local.fields, server) : !local.fields.title && !local.fields.content) {
    return { kind: 'clean', forget: true };
  }
  return { kind: 'offer', local };
}

/** How a conflict is settled: the text to show, the version it is based on, and whether to save it. */
export interface Settlement {
  fields: PostFields;
  baseVersion: number;
  save: boolean;
}

/**
 * Settles a conflict: keeping theirs shows their version, saved already;
 * keeping yours (mine: the editor's text now, which may have grown since the
 * refused save) saves it again on top of theirs, so their version stays in
 * the revisions.
 */
export function settleConflict(
  conflict: Conflict,
  keep: 'theirs' | 'yours',
  mine: PostFields,
): Settlement {
  if (keep === 'theirs') {
    return { fields: fieldsOf(conflict.theirs), baseVersion: conflict.theirs.version, save: false };
  }
  return { fields: fieldsOf(mine), baseVersion: conflict.theirs.version, save: true };
}

/** Whether body is the Conflict of a 409 save. */
export function isConflict(body: unknown): body is Conflict {
  if (!body || typeof body !== 'object') return false;
  const c = body as Partial<Conflict>;
  return !!c.theirs && typeof c.theirs.version === 'number' && !!c.yours;
}

/** Where the editor's text stands with the site. */
export type SaveState =
  'saved' | 'saving' | 'pending' | 'local' | 'untitled' | 'conflict' | 'refused';

/** Says a save state in words, for the line under the editor. */
export function saveStateLabel(state: SaveState): string {
  switch (state) {
    case 'saved':
      return 'Saved';
    case 'saving':
    case 'pending':
      return 'Saving…';
    case 'local':
      return 'Saved on this phone — will sync';
    case 'untitled':
      return 'Saved on this phone — add a title to save it to the site';
    case 'conflict':
      return 'Not saved: someone else saved this post meanwhile';
    case 'refused':
      return 'Saved on this phone — the site refused it';
  }
}
