import type { Violation } from '../gen/wire.gen';

/** Reads what Go logs of a violation event seen on route during page load load. */
export function describeViolation(
  e: SecurityPolicyViolationEvent,
  load: string,
  route: string,
): Violation {
  return {
    load,
    route,
    // The effective directive names what was blocked even when the policy
    // only has default-src; older engines only fill in the violated one.
    directive: e.effectiveDirective || e.violatedDirective,
    // An inline script or style has no address.
    blocked: e.blockedURI || 'inline',
    source: e.sourceFile ? `${e.sourceFile}:${e.lineNumber}:${e.columnNumber}` : '',
    sample: e.sample ?? '',
  };
}

/**
 * Calls report with each Content-Security-Policy violation of doc from now
 * on, named as page load load; returns the unsubscribe. The events bubble
 * up from the blocked element, or start at the document, so one listener
 * sees them all.
 */
export function watchViolations(
  doc: Document,
  load: string,
  report: (v: Violation) => void,
): () => void {
  const onViolation = (e: Event) =>
    report(describeViolation(e as SecurityPolicyViolationEvent, load, doc.location.pathname));
  doc.addEventListener('securitypolicyviolation', onViolation);
  return () => doc.removeEventListener('securitypolicyviolation', onViolation);
}
