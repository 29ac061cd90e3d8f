import { useId, useState } from 'react';
import { MaxPhotoBytes } from '../../../gen/wire.gen';
import { messageOf, uploadPhoto } from '../api';
import { AdminError } from '../public/admin-error';

/**
 * "Add photo": a file input that on a phone offers the camera or the
 * library; uploads the picked photo with its progress and hands its
 * markdown to onUploaded.
 */
export function PhotoButton({ onUploaded }: { onUploaded: (markdown: string) => void }) {
  const inputId = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState('');

  async function upload(file: File) {
    if (file.size > MaxPhotoBytes) {
      // Said before the upload: on venue Wi-Fi, sending it to be refused takes minutes.
      setError(
        `This photo is larger than ${MaxPhotoBytes / 2 ** 20} MB, the most the site takes; share a smaller version of it.`,
      );
      return;
    }
    setError('');
    setProgress(0);
    try {
      const photo = await uploadPhoto(file, setProgress);
      onUploaded(photo.markdown);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setProgress(null);
    }
  }

  return (
    <div className="photo">
      <input
        id={inputId}
        className="visually-hidden"
        type="file"
        accept="image/*"
        disabled={progress !== null}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void upload(file);
        }}
      />
      <label htmlFor={inputId} className="admin-button" aria-disabled={progress !== null}>
        {progress === null ? 'Add photo' : 'Uploading…'}
      </label>
      {progress !== null && (
        <progress className="photo__progress" max={1} value={progress} aria-label="Upload">
          {Math.round(progress * 100)}%
        </progress>
      )}
      <AdminError>{error}</AdminError>
    </div>
  );
}
