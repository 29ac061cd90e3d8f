import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchViolations } from './csp';

/**
 * Fires a securitypolicyviolation event at target as the browser would. jsdom
 * has no SecurityPolicyViolationEvent, so the fields go on a plain event.
 */
function violate(target: EventTarget, fields: Partial<SecurityPolicyViolationEvent>) {
  const e = new Event('securitypolicyviolation', { bubbles: true, composed: true });
  target.dispatchEvent(Object.assign(e, fields));
}

/** What an inline style attribute gives, in the shape both Chromium and WebKit use. */
const inlineStyle: Partial<SecurityPolicyViolationEvent> = {
  effectiveDirective: 'style-src-attr',
  violatedDirective: 'style-src',
  blockedURI: 'inline',
  sourceFile: 'wails://wails/assets/index-1a2b.js',
  lineNumber: 1,
  columnNumber: 2345,
  sample: '',
};

describe('watchViolations', () => {
  let stop: (() => void) | undefined;
  afterEach(() => {
    stop?.();
    stop = undefined;
    document.body.replaceChildren();
    window.history.replaceState(null, '', '/');
  });

  it('reports a violation on an element with the page load, route and source', () => {
    const report = vi.fn();
    window.history.replaceState(null, '', '/about');
    stop = watchViolations(document, '1700000000000.5', report);
    const el = document.createElement('div');
    document.body.append(el);
    violate(el, inlineStyle);
    expect(report).toHaveBeenCalledExactlyOnceWith({
      load: '1700000000000.5',
      route: '/about',
      directive: 'style-src-attr',
      blocked: 'inline',
      source: 'wails://wails/assets/index-1a2b.js:1:2345',
      sample: '',
    });
  });

  it('reads a blocked address, the violated directive when there is no effective one, and no source', () => {
    const report = vi.fn();
    stop = watchViolations(document, '1', report);
    violate(document, {
      effectiveDirective: '',
      violatedDirective: 'img-src',
      blockedURI: 'https://example.com/robot.jpg',
      sourceFile: '',
      sample: undefined,
    });
    expect(report).toHaveBeenCalledExactlyOnceWith({
      load: '1',
      route: '/',
      directive: 'img-src',
      blocked: 'https://example.com/robot.jpg',
      source: '',
      sample: '',
    });
  });

  it('names blocked inline code "inline" and passes its sample on', () => {
    const report = vi.fn();
    stop = watchViolations(document, '1', report);
    violate(document, {
      ...inlineStyle,
      effectiveDirective: 'script-src-elem',
      blockedURI: '',
      sample: 'alert(1)',
    });
    expect(report).toHaveBeenCalledWith(
      expect.objectContaining({
        directive: 'script-src-elem',
        blocked: 'inline',
        sample: 'alert(1)',
      }),
    );
  });

  it('reports every violation, and none after the unsubscribe', () => {
    const report = vi.fn();
    stop = watchViolations(document, '1', report);
    violate(document, inlineStyle);
    violate(document, inlineStyle);
    expect(report).toHaveBeenCalledTimes(2);
    stop();
    violate(document, inlineStyle);
    expect(report).toHaveBeenCalledTimes(2);
  });
});
