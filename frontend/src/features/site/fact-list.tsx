import type { Fact } from '../../shared/content-types';

interface FactListProps {
  facts: readonly Fact[];
  /** The list's accessible name. */
  label: string;
  /** Steps in order (a numbered timeline) rather than a row of facts. */
  steps?: boolean;
}

/** A row of facts, each a large value over its caption, or a timeline of steps. */
export function FactList({ facts, label, steps = false }: FactListProps) {
  const List = steps ? 'ol' : 'ul';
  return (
    <List className={steps ? 'facts facts--steps' : 'facts'} aria-label={label}>
      {facts.map((fact) => (
        <li key={fact.value} className="facts__item">
          <strong className="facts__value">{fact.value}</strong>
          <span className="facts__label">{fact.label}</span>
        </li>
      ))}
    </List>
  );
}
