import { Link } from 'react-router';
import { cssVars, ms } from '../../shared/css-vars';
import { InlineLinkHoverStagger } from '../../gen/spec.gen';
import { StaggeredLetters, VisuallyHidden } from '../../shared/staggered-text';

type InlineLinkProps = { children: string; className?: string } & (
  { to: string; href?: never } | { href: string; to?: never; external?: boolean }
);

/**
 * A link inside running text whose letters recolour one after another on hover,
 * InlineLinkHoverStagger ms apart. `to` is a route of the site; `href` any other
 * address (external ones open in a new tab).
 */
export function InlineLink(props: InlineLinkProps) {
  const className = ['inline-link', props.className].filter(Boolean).join(' ');
  const style = cssVars({ '--stagger': ms(InlineLinkHoverStagger) });
  const body = (
    <>
      <VisuallyHidden>{props.children}</VisuallyHidden>
      <StaggeredLetters text={props.children} />
    </>
  );
  if (props.to !== undefined) {
    return (
      <Link to={props.to} className={className} style={style}>
        {body}
      </Link>
    );
  }
  const external = 'external' in props && props.external;
  return (
    <a
      href={props.href}
      className={className}
      style={style}
      {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
    >
      {body}
    </a>
  );
}
