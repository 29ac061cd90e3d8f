import { useEffect, useState } from 'react';
import type { PostFields, Preview as PreviewAnswer } from '../../../gen/wire.gen';
import { api, messageOf } from '../api';
import { formatWhen } from '../datetime';
import { AdminError } from '../public/admin-error';

/**
 * The Preview tab: the text rendered by the server, through the same
 * markdown and sanitiser path as publishing, so it is what visitors see.
 */
export function Preview({ fields }: { fields: PostFields }) {
  const [html, setHtml] = useState<string | null>(null);
  const [error, setError] = useState('');
  const { content } = fields;

  useEffect(() => {
    let current = true;
    api<PreviewAnswer>('POST', '/preview', { content }).then(
      (answer) => {
        if (!current) return;
        setHtml(answer.html);
        setError('');
      },
      (err: unknown) => current && setError(messageOf(err)),
    );
    return () => {
      current = false;
    };
  }, [content]);

  return (
    <div role="tabpanel" aria-label="Preview" className="preview">
      <AdminError>{error}</AdminError>
      <article className="preview__article news-article">
        <h1>{fields.title || '(no title)'}</h1>
        <p className="preview__date">{formatWhen(fields.date)}</p>
        {html === null ? (
          <p className="loading">Loading…</p>
        ) : (
          // The only HTML the console inserts: the server's, made by the same
          // goldmark + bluemonday path as a published article, so it is
          // already sanitised (and the site's CSP forbids any script in it).
          <div className="preview__body" dangerouslySetInnerHTML={{ __html: html }} />
        )}
      </article>
    </div>
  );
}
