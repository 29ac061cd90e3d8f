import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { Post } from '../platform/wire.gen';
import { api, messageOf } from './api';
import { localIds, newPostId, readLocal } from './autosave';
import { formatWhen } from './datetime';
import { AdminError } from './public/admin-error';
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

/** /admin: the posts (scheduled, published, drafts), a search box, and "New post". */
export function PostsList() {
  const [query, setQuery] = useState('');
  const [posts, setPosts] = useState<Post[] | null>(null);
  const [error, setError] = useState('');
  const [unsaved] = useState(() => new Set(localIds(localStorage)));
  const [newDraft] = useState(() => readLocal(localStorage, newPostId));

  useEffect(() => {
    let current = true;
    const timer = setTimeout(
      () => {
        api<Post[] | null>('GET', `/posts?q=${encodeURIComponent(query.trim())}`).then(
          (list) => {
            if (!current) return;
            setPosts(list ?? []);
            setError('');
          },
          (err: unknown) => current && setError(messageOf(err)),
        );
      },
      query ? searchDelayMs : 0,
    );
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query]);

  const groups = groupPosts(posts ?? []);
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
      <AdminError>{error}</AdminError>
      {newDraft && (
        <p className="admin-note">
          <Link to={`/admin/posts/${newPostId}`}>
            Unsaved new post on this phone: “{newDraft.fields.title || 'no title'}”
          </Link>
        </p>
      )}
      {posts === null && !error && <p className="loading">Loading…</p>}
      {posts?.length === 0 && (
        <p>{query ? 'No post matches.' : 'No posts yet. Write the first one.'}</p>
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
