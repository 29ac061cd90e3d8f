import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeViolation, watchViolations } from './csp';

/**
 * A securitypolicyviolation event as the browser fires it. jsdom has no
 * SecurityPolicyViolationEvent, so the fields go on a plain event.
 */
function violation(fields: Partial<SecurityPolicyViolationEvent>): SecurityPolicyViolationEvent {
  const e = new Event('securitypolicyviolation', { bubbles: true, composed: true });
  return Object.assign(e, fields) as SecurityPolicyViolationEvent;
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

describe('describeViolation', () => {
  it.each([
    {
      what: 'an inline style with its source',
      fields: inlineStyle,
      read: {
        directive: 'style-src-attr',
        blocked: 'inline',
        source: 'wails://wails/assets/index-1a2b.js:1:2345',
        sample: '',
      },
    },
    {
      what: 'a blocked address, the violated directive when there is no effective one, no source',
      fields: {
        effectiveDirective: '',
        violatedDirective: 'img-src',
        blockedURI: 'https://example.com/robot.jpg',
        sourceFile: '',
        sample: undefined,
      },
      read: {
        directive: 'img-src',
        blocked: 'https://example.com/robot.jpg',
        source: '',
        sample: '',
      },
    },
    {
      what: 'blocked inline code as "inline", with its sample',
      fields: {
        ...inlineStyle,
        effectiveDirective: 'script-src-elem',
        blockedURI: '',
        sample: 'alert(1)',
      },
      read: {
        directive: 'script-src-elem',
        blocked: 'inline',
        source: 'wails://wails/assets/index-1a2b.js:1:2345',
        sample: 'alert(1)',
      },
    },
  ])('reads $what', ({ fields, read }) => {
    expect(describeViolation(violation(fields), '1', '/news')).toEqual({
      load: '1',
      route: '/news',
      ...read,
    });
  });
});

describe('watchViolations', () => {
  let stop: (() => void) | undefined;
  afterEach(() => {
    stop?.();
    stop = undefined;
    document.body.replaceChildren();
    window.history.replaceState(null, '', '/');
  });

  it('reports a violation on an element with the page load and route', () => {
    const report = vi.fn();
    window.history.replaceState(null, '', '/about');
    stop = watchViolations(document, '1700000000000.5', report);
    const el = document.createElement('div');
    document.body.append(el);
    el.dispatchEvent(violation(inlineStyle));
    expect(report).toHaveBeenCalledExactlyOnceWith(
      describeViolation(violation(inlineStyle), '1700000000000.5', '/about'),
    );
  });

  it('reports every violation, and none after the unsubscribe', () => {
    const report = vi.fn();
    stop = watchViolations(document, '1', report);
    document.dispatchEvent(violation(inlineStyle));
    document.dispatchEvent(violation(inlineStyle));
    expect(report).toHaveBeenCalledTimes(2);
    stop();
    document.dispatchEvent(violation(inlineStyle));
    expect(report).toHaveBeenCalledTimes(2);
  });
});
