// The shapes of the texts that the site's pages and the season pages both
// show; each feature keeps its own words (features/site/content.ts,
// features/seasons/content.ts).

/** A link to another site. */
export interface ExternalLink {
  readonly href: string;
  readonly label: string;
}

/** A number or short fact with its caption, shown large in a row of facts. */
export interface Fact {
  readonly value: string;
  readonly label: string;
}
