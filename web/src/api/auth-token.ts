/**
 * Where the API client gets the bearer token from. The auth feature registers a source once Firebase is
 * ready; until then (and when signed out) requests go without a token.
 */
export type TokenSource = () => Promise<string | null>;

let source: TokenSource = async () => null;

export function setTokenSource(next: TokenSource): void {
  source = next;
}

export function getAuthToken(): Promise<string | null> {
  return source();
}
