import type { ReactNode } from 'react';

/** An error the console's pages announce as it appears; nothing while children is empty. */
export function AdminError({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p className="admin-error" role="alert">
      {children}
    </p>
  );
}
