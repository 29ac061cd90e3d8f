import { useEffect, useState } from 'react';
import { Link, useLoaderData, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import type { Post } from '../../gen/wire.gen';
import { api } from './api';
import { localIds, newPostId, readLocal } from './autosave';
import { formatWhen } from './datetime';
import { PageError } from './page-error';
import type { PageRoute } from './public/routes';
import { groupPosts, statusLabel } from './status';

/** How long the search waits after the last key stroke. */
const searchDelayMs = 250;

/** One group of the list. */
function Group({ title, posts, unsaved }: { title: string; posts: Post[]; unsaved: Set<string> }) {
  if (posts.length === 0) return null;
  return (
    <section className="posts-group" aria-label={title}>
      <h2>
        {title} <span className="posts-group__count">{posts.length}</span>
      </h2>
      <ul className="posts">
        {posts.map((post) => (
          <li key={post.id}>
            <Link className="post-row" to={`/admin/posts/${encodeURIComponent(post.id)}`}>
              <span className="post-row__title">{post.title || '(no title)'}</span>
              <span className="post-row__meta">
                {statusLabel(post, formatWhen)}
                {unsaved.has(post.id) && ' · unsaved text on this phone'}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The search of the list's address (?q=). */
const searchParam = 'q';

/** Loads the posts that match the address's search (all of them without one). */
async function postsLoader({ request }: LoaderFunctionArgs): Promise<Post[]> {
  const query = new URL(request.url).searchParams.get(searchParam) ?? '';
  return (await api<Post[] | null>('GET', `/posts?q=${encodeURIComponent(query.trim())}`)) ?? [];
}

/**
 * /admin: the posts (scheduled, published, drafts), a search box, and "New
 * post". The search goes to the address (?q=) searchDelayMs after typing
 * stops, and the list's loader answers it.
 */
export function PostsList() {
  const posts = useLoaderData<typeof postsLoader>();
  const [params, setParams] = useSearchParams();
  const searched = params.get(searchParam) ?? '';
  const [query, setQuery] = useState(searched);
  // The address's search, as the box last took it: another search in the
  // address (the nav's link to the list, say) replaces what is typed.
  const [shown, setShown] = useState(searched);
  if (shown !== searched) {
    setShown(searched);
    setQuery(searched);
  }
  const [unsaved] = useState(() => new Set(localIds(localStorage)));
  const [newDraft] = useState(() => readLocal(localStorage, newPostId));

  useEffect(() => {
    if (query === searched) return;
    const timer = setTimeout(
      () => setParams(query ? { [searchParam]: query } : {}, { replace: true }),
      searchDelayMs,
    );
    return () => clearTimeout(timer);
  }, [query, searched, setParams]);

  const groups = groupPosts(posts);
  return (
    <div className="console-page">
      <h1>Posts</h1>
      <label className="admin-field">
        <span className="visually-hidden">Search posts</span>
        <input
          type="search"
          placeholder="Search posts"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </label>
      {newDraft && (
        <p className="admin-note">
          <Link to={`/admin/posts/${newPostId}`}>
            Unsaved new post on this phone: “{newDraft.fields.title || 'no title'}”
          </Link>
        </p>
      )}
      {posts.length === 0 && (
        <p>{searched ? 'No post matches.' : 'No posts yet. Write the first one.'}</p>
      )}
      <Group title="Scheduled" posts={groups.scheduled} unsaved={unsaved} />
      <Group title="Drafts" posts={groups.drafts} unsaved={unsaved} />
      <Group title="Published" posts={groups.published} unsaved={unsaved} />
      <div className="console-actions">
        <Link
          className="admin-button admin-button--primary admin-button--big"
          to={`/admin/posts/${newPostId}`}
        >
          New post
        </Link>
      </div>
    </div>
  );
}

/** The list's route. */
export const route: PageRoute = {
  Component: PostsList,
  loader: postsLoader,
  ErrorBoundary: PageError,
};
