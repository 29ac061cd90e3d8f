/** Loads the current document again from the server. A module of its own, so tests can replace it. */
export function reloadDocument(): void {
  window.location.reload();
}
