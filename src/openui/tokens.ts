// A browser's frontend token, kept fresh: fetched when first needed, fetched again a little before
// it expires or after the service refused it, and one fetch at a time however many calls wait.

/** What the application's own mint route answers (its server calls POST /v1/frontend-tokens). */
export type TokenAnswer = string | { token: string; expires_at?: number | null };

export interface TokenSource {
  /** A token valid now. */
  get(): Promise<string>;
  /** Forget the token (the service answered 401): the next get() fetches a new one. */
  invalidate(token: string): void;
}

/** Seconds before `expires_at` at which a token is fetched again. */
export const REFRESH_SKEW_SECONDS = 60;

export function tokenSource(fetchToken: () => Promise<TokenAnswer>, skewSeconds = REFRESH_SKEW_SECONDS): TokenSource {
  let current: { token: string; expiresAt: number | null } | null = null;
  let inFlight: Promise<string> | null = null;
  const fresh = () => current !== null && (current.expiresAt === null || current.expiresAt - skewSeconds > Date.now() / 1000);
  return {
    get() {
      if (fresh()) return Promise.resolve(current!.token);
      inFlight ??= fetchToken()
        .then((answer) => {
          const t = typeof answer === "string" ? { token: answer, expires_at: null } : answer;
          if (!t || typeof t.token !== "string" || t.token === "") throw new Error("the token function returned no token");
          current = { token: t.token, expiresAt: typeof t.expires_at === "number" ? t.expires_at : null };
          return t.token;
        })
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    },
    invalidate(token) {
      if (current?.token === token) current = null;
    },
  };
}
