import { Fragment } from 'react';
import { cssVars } from './css-vars';

/**
 * Renders text as one span per letter, each with its position in `--i`, so CSS can
 * delay each letter's hover transition by `--i` × `--stagger`. Hidden from assistive
 * technology: the caller puts the plain text next to it (see VisuallyHidden).
 */
export function StaggeredLetters({ text }: { text: string }) {
  const words = text.split(' ');
  const starts = words.map((_, w) =>
    words.slice(0, w).reduce((sum, word) => sum + word.length + 1, 0),
  );
  return (
    <span className="letters" aria-hidden="true">
      {words.map((word, w) => (
        <Fragment key={w}>
          {/* The space stays outside the no-wrap word, so a long title can wrap there. */}
          {w > 0 ? ' ' : null}
          <span className="letters__word">
            {Array.from(word, (char, c) => (
              <span key={c} className="letters__char" style={cssVars({ '--i': starts[w] + c })}>
                {char}
              </span>
            ))}
          </span>
        </Fragment>
      ))}
    </span>
  );
}

/** Text for screen readers only. */
export function VisuallyHidden({ children }: { children: string }) {
  return <span className="visually-hidden">{children}</span>;
}
