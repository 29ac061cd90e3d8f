import { mailto, type Person } from './content';
import { InlineLink } from './inline-link';

/** A contact card for one person: name, role, email and room. */
export function PersonCard({ person }: { person: Person }) {
  return (
    <article className="person-card">
      <span className="person-card__avatar" aria-hidden="true" />
      <div className="person-card__body">
        <h3 className="person-card__name">{person.name}</h3>
        <p className="person-card__role">{person.role}</p>
        <dl className="person-card__details">
          <dt>Email</dt>
          <dd>
            <InlineLink href={mailto(person.email)}>{person.email}</InlineLink>
          </dd>
          <dt>Room</dt>
          <dd>Room {person.room}</dd>
        </dl>
      </div>
    </article>
  );
}
