import type { ReactNode } from 'react';

interface Props {
  /** The danger button's words, naming what it does to what. */
  children: ReactNode;
  /** The other button's words: it takes the question back. */
  cancel: string;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** The second step of a destructive action: the danger button, and one to take it back. */
export function ConfirmButtons({ children, cancel, busy, onConfirm, onCancel }: Props) {
  return (
    <span className="admin-row">
      <button
        type="button"
        className="admin-button admin-button--danger"
        disabled={busy}
        onClick={onConfirm}
      >
        {children}
      </button>
      <button type="button" className="admin-button" onClick={onCancel}>
        {cancel}
      </button>
    </span>
  );
}
