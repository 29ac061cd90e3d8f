import { useRef } from 'react';
import type { PostFields } from '../../../gen/wire.gen';
import { fromLocalInput, toLocalInput } from '../datetime';
import { insertAtCursor } from '../text';
import { PhotoButton } from './photo-button';

interface Props {
  fields: PostFields;
  /** The text as of now: a photo's upload ends after other changes. */
  fieldsNow(): PostFields;
  onChange(next: PostFields): void;
}

/** The Write tab: title, date, the text in markdown, and "Add photo", which puts the photo at the cursor. */
export function PostForm({ fields, fieldsNow, onChange }: Props) {
  const textarea = useRef<HTMLTextAreaElement>(null);

  function insertPhoto(markdown: string) {
    const el = textarea.current;
    const current = fieldsNow();
    const start = el?.selectionStart ?? current.content.length;
    const end = el?.selectionEnd ?? current.content.length;
    const out = insertAtCursor(current.content, start, end, markdown);
    onChange({ ...current, content: out.text });
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(out.cursor, out.cursor);
    });
  }

  return (
    <div className="editor__form" role="tabpanel" aria-label="Write">
      <label className="admin-field">
        <span>Title</span>
        <input
          value={fields.title}
          onChange={(e) => onChange({ ...fields, title: e.target.value })}
          placeholder="What happened?"
        />
      </label>
      <label className="admin-field">
        <span>Date</span>
        <input
          type="datetime-local"
          value={toLocalInput(fields.date)}
          onChange={(e) => onChange({ ...fields, date: fromLocalInput(e.target.value) })}
        />
      </label>
      <label className="admin-field">
        <span>Text (markdown)</span>
        <textarea
          ref={textarea}
          className="editor__text"
          value={fields.content}
          onChange={(e) => onChange({ ...fields, content: e.target.value })}
          rows={12}
        />
      </label>
      <PhotoButton onUploaded={insertPhoto} />
    </div>
  );
}
