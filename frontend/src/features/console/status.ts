// Posts as the list and the editor show them: grouped by state, labelled.
import { StatusDraft, StatusPublished, StatusScheduled, type Post } from '../../gen/wire.gen';

/** The posts of each state, in the list's order: scheduled soonest first, the others newest first. */
export interface PostGroups {
  scheduled: Post[];
  published: Post[];
  drafts: Post[];
}

/** Sorts posts into their groups. */
export function groupPosts(posts: readonly Post[]): PostGroups {
  const byDate = (a: Post, b: Post) => Date.parse(a.date) - Date.parse(b.date);
  const byUpdate = (a: Post, b: Post) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt);
  return {
    scheduled: posts.filter((p) => p.status === StatusScheduled).sort(byDate),
    published: posts.filter((p) => p.status === StatusPublished).sort((a, b) => -byDate(a, b)),
    drafts: posts
      .filter((p) => p.status !== StatusPublished && p.status !== StatusScheduled)
      .sort(byUpdate),
  };
}

/**
 * Says a post's state in words: "Draft", "Scheduled for Sat 3 May, 14:30",
 * "Published"; with "edits not on the site yet" when the latest revision
 * differs from what visitors see. when formats a time.
 */
export function statusLabel(
  post: Pick<Post, 'status' | 'date' | 'changed'>,
  when: (iso: string) => string,
): string {
  const edits = post.changed ? ' · edits not on the site yet' : '';
  switch (post.status) {
    case StatusPublished:
      return `Published${edits}`;
    case StatusScheduled:
      return `Scheduled for ${when(post.date)}${edits}`;
    case StatusDraft:
      return 'Draft';
    default:
      return post.status;
  }
}
