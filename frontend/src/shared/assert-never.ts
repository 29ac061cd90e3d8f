/**
 * The end of an exhaustive switch over a union: TypeScript fails the build
 * when a member is left out, and a value the types do not know (a server
 * newer than the page) throws rather than showing the wrong thing.
 */
export function assertNever(value: never): never {
  throw new Error(`unexpected value ${JSON.stringify(value)}`);
}
