import { Component, type ReactNode } from 'react';
import './route-error-boundary.css';

/** How soon a failed page tries again by itself (an unattended screen has nobody to click). */
const retryAfterMs = 10_000;

interface Props {
  children: ReactNode;
}

interface State {
  failed: boolean;
}

/**
 * Catches a page that failed to render or to load (a lazy page while
 * offline), shows a branded notice instead of a blank screen, and tries
 * again after retryAfterMs or when asked.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  state: State = { failed: false };
  private timer: ReturnType<typeof setTimeout> | undefined;

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.warn('page failed; retrying soon', error);
    clearTimeout(this.timer);
    this.timer = setTimeout(this.retry, retryAfterMs);
  }

  componentWillUnmount() {
    clearTimeout(this.timer);
  }

  retry = () => {
    clearTimeout(this.timer);
    this.setState({ failed: false });
  };

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <section className="route-error" role="alert">
        <h1>This page hit a snag</h1>
        <p>It will try again by itself in a few seconds.</p>
        <button type="button" className="button" onClick={this.retry}>
          Try again now
        </button>
      </section>
    );
  }
}
