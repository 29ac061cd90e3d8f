// Opening a post in the editor (the editor route's loader): the site's
// latest version and the text this device kept unsaved, decided before the
// editor shows (autosave.ts decides; this applies it).
import type { LoaderFunctionArgs, ShouldRevalidateFunctionArgs } from 'react-router';
import type { Post, PostFields } from '../../../gen/wire.gen';
import { api } from '../api';
import {
  decideOnOpen,
  fieldsOf,
  newPostId,
  readLocal,
  removeLocal,
  type LocalCopy,
} from '../autosave';
import { NetworkError } from '../public/api';

/** A post as the editor opens it. */
export interface Opening {
  /** The post's id; null for a new post, not on the site yet. */
  id: string | null;
  /** The site's latest version; null for a new post, or when the site could not be reached. */
  post: Post | null;
  /** The text the editor shows. */
  fields: PostFields;
  /** The version that text is based on (0 for a new post). */
  baseVersion: number;
  /** Whether the text is not on the site (written offline): it is saved once the site answers. */
  unsaved: boolean;
  /** This device's unsaved text to offer back before anything else; null when there is none. */
  offer: LocalCopy | null;
}

/** The fields of a new post: no text, dated now. */
function blankFields(): PostFields {
  const now = new Date();
  now.setSeconds(0, 0);
  return { title: '', date: now.toISOString(), content: '' };
}

/** Opens server (null for a new post) with the local copy this device kept of it. */
function open(id: string | null, server: Post | null): Opening {
  const key = id ?? newPostId;
  const decision = decideOnOpen(readLocal(localStorage, key), server);
  if (decision.kind === 'clean' && decision.forget) removeLocal(localStorage, key);
  return {
    id,
    post: server,
    fields: server ? fieldsOf(server) : blankFields(),
    baseVersion: server?.version ?? 0,
    unsaved: false,
    offer: decision.kind === 'offer' ? decision.local : null,
  };
}

/**
 * The editor's loader (/admin/posts/:id, id "new" for a new post): the
 * post opened; offline, the text this device kept of it, to save once the
 * site answers. Any other failure is the page's error.
 */
export async function editorLoader({ params }: LoaderFunctionArgs): Promise<Opening> {
  const id = !params.id || params.id === newPostId ? null : params.id;
  if (!id) return open(null, null);
  try {
    return open(id, await api<Post>('GET', `/posts/${encodeURIComponent(id)}`));
  } catch (err) {
    const local = readLocal(localStorage, id);
    if (!(err instanceof NetworkError) || !local) throw err;
    return {
      id,
      post: null,
      fields: local.fields,
      baseVersion: local.baseVersion,
      unsaved: true,
      offer: null,
    };
  }
}

/**
 * Whether the editor's loader runs again: not when a new post, once
 * created, takes its address (the editor goes on with it), else as the
 * router would.
 */
export function editorShouldRevalidate({
  currentParams,
  nextParams,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs): boolean {
  if (currentParams.id === newPostId && nextParams.id !== newPostId) return false;
  return defaultShouldRevalidate;
}
