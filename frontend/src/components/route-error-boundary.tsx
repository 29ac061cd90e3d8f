import { Component, type ReactNode } from 'react';
import { reloadDocument } from '../lib/reload';
import { PageLoadError } from './lazy-page';
import './route-error-boundary.css';

/** How soon a failed page tries again by itself (an unattended screen has nobody to click). */
const retryAfterMs = 10_000;

interface Props {
  children: ReactNode;
}

interface State {
  failed: boolean;
  /** The page's files could not be fetched (rather than the page failing to render). */
  loadFailed: boolean;
}

/** Whether the site's server answers now. */
function serverAnswers(): Promise<boolean> {
  return fetch('/healthz', { cache: 'no-store' }).then(
    (res) => res.ok,
    () => false,
  );
}

/**
 * Catches a page that failed to render or to load (a lazy page while
 * offline), shows a branded notice instead of a blank screen, and tries
 * again after retryAfterMs, when the network comes back, or when asked.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  state: State = { failed: false, loadFailed: false };
  private timer: ReturnType<typeof setTimeout> | undefined;

  static getDerivedStateFromError(error: unknown): State {
    return { failed: true, loadFailed: error instanceof PageLoadError };
  }

  componentDidCatch(error: unknown) {
    console.warn('page failed; retrying soon', error);
    this.schedule();
    window.addEventListener('online', this.retry);
  }

  componentWillUnmount() {
    clearTimeout(this.timer);
    window.removeEventListener('online', this.retry);
  }

  private schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(this.retry, retryAfterMs);
  }

  retry = () => {
    clearTimeout(this.timer);
    if (!this.state.loadFailed) {
      window.removeEventListener('online', this.retry);
      this.setState({ failed: false, loadFailed: false });
      return;
    }
    // Only a fresh document fetches the page's files again. Reload only
    // when the server answers, so a visitor offline keeps this notice
    // rather than getting the browser's own error page.
    void serverAnswers().then((ok) => (ok ? reloadDocument() : this.schedule()));
  };

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section className="route-error" role="alert">
        {this.state.loadFailed ? (
          <>
            <h1>This page could not be loaded</h1>
            <p>It will load by itself as soon as the site can be reached again.</p>
          </>
        ) : (
          <>
            <h1>This page hit a snag</h1>
            <p>It will try again by itself in a few seconds.</p>
          </>
        )}
        <button type="button" className="button" onClick={this.retry}>
          Try again now
        </button>
      </section>
    );
  }
}
