import { Component, Suspense, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
}

/**
 * A part of the frame that the page does without: nothing while its code
 * loads, and nothing (a warning in the console) when it fails to load or
 * to render, so the page around it stays rather than giving way to the
 * route's error notice.
 */
export class Optional extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.warn('a part of the frame failed; the page goes on without it', error);
  }

  render() {
    if (this.state.failed) return null;
    return <Suspense fallback={null}>{this.props.children}</Suspense>;
  }
}
