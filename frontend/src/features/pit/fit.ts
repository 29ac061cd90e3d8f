import { useLayoutEffect, type RefObject } from 'react';

/**
 * The panels of the board whose type gives way when what they hold does not
 * fit them (pit.css multiplies their sizes by --pit-fit): the next match,
 * which says the most at once in the playoffs, the team cards, our matches
 * and the links.
 */
const shrinking = '.pit-hero, .pit-teams, .pit-matches, .pit-links';

/** Text that may end in an ellipsis: a team's nickname, free text of any length. */
const mayShorten = '.pit-card__name';

/** The smallest scale a panel's type takes: below it, a crew no longer reads it across the pit. */
const minFit = 0.6;

/** The box of el that its children keep to: its content box for panel, else its border box. */
function holder(el: HTMLElement, panel: HTMLElement): DOMRect {
  const r = el.getBoundingClientRect();
  if (el !== panel) return r;
  const s = getComputedStyle(el);
  const px = (v: string) => parseFloat(v) || 0;
  return new DOMRect(
    r.left + px(s.borderLeftWidth) + px(s.paddingLeft),
    r.top + px(s.borderTopWidth) + px(s.paddingTop),
    r.width -
      px(s.borderLeftWidth) -
      px(s.paddingLeft) -
      px(s.paddingRight) -
      px(s.borderRightWidth),
    r.height -
      px(s.borderTopWidth) -
      px(s.paddingTop) -
      px(s.paddingBottom) -
      px(s.borderBottomWidth),
  );
}

/**
 * Whether panel shows all it holds: every box in it lies within the box
 * that holds it (to a pixel; within the panel's padding, off a ring drawn
 * there), so nothing spills over the panel's edge or onto what comes after
 * it, and no label ends in an ellipsis.
 */
function fits(panel: HTMLElement): boolean {
  for (const el of panel.querySelectorAll<HTMLElement>('*')) {
    const r = el.getBoundingClientRect();
    const parent = el.parentElement;
    if (!parent || r.width === 0 || r.height === 0) continue;
    const p = holder(parent, panel);
    if (
      r.top < p.top - 1 ||
      r.bottom > p.bottom + 1 ||
      r.left < p.left - 1 ||
      r.right > p.right + 1
    ) {
      return false;
    }
    // A label cut short by an ellipsis (a team's nickname may be).
    if (
      el.scrollWidth > el.clientWidth + 1 &&
      getComputedStyle(el).textOverflow === 'ellipsis' &&
      !el.matches(mayShorten)
    ) {
      return false;
    }
  }
  return true;
}

/**
 * Sets panel's --pit-fit to the largest scale, to 1/64, from minFit to 1,
 * at which it shows all it holds (minFit when none does). A panel sized by
 * its content, as on a phone, always fits at 1.
 */
function fitPanel(panel: HTMLElement) {
  const scale = (s: number) => panel.style.setProperty('--pit-fit', String(s));
  scale(1);
  if (fits(panel)) return;
  let lo = minFit;
  let hi = 1;
  while (hi - lo > 1 / 64) {
    const mid = (lo + hi) / 2;
    scale(mid);
    if (fits(panel)) lo = mid;
    else hi = mid;
  }
  scale(lo);
}

/**
 * Fits the shrinking panels of board (fitPanel) before each paint after a
 * change of what it shows (deps), and again when a panel's size changes,
 * like when a notice or a warning comes above the board.
 */
export function useFitPanels(board: RefObject<HTMLElement | null>, deps: readonly unknown[]) {
  useLayoutEffect(() => {
    const panels = [...(board.current?.querySelectorAll<HTMLElement>(shrinking) ?? [])];
    panels.forEach(fitPanel);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => panels.forEach(fitPanel));
    panels.forEach((p) => observer.observe(p));
    return () => observer.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- deps are the caller's
  }, deps);
}
