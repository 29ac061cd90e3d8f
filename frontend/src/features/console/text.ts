/**
 * Inserts snippet (a photo's markdown) into text at the selection start..end,
 * on lines of its own; returns the new text and where the cursor goes (after it).
 */
export function insertAtCursor(
  text: string,
  start: number,
  end: number,
  snippet: string,
): { text: string; cursor: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  const before = text.slice(0, from);
  const after = text.slice(to);
  const lead =
    before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  const trail =
    after === '' ? '\n' : after.startsWith('\n\n') ? '' : after.startsWith('\n') ? '\n' : '\n\n';
  const inserted = lead + snippet + trail;
  return { text: before + inserted + after, cursor: before.length + inserted.length };
}
