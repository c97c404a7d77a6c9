// CORS for the routes a browser calls with a frontend token: Conversations, the models list and
// the stored artifacts (under /v1 and /v1/embed), and the model turns of Responses and Embed. Allowed
// origins come from TESSERA_CORS_ORIGINS (none by default). Every answer carries the headers,
// errors included: without them a browser reports a 403 or 404 as a CORS failure instead.

// Under /v1 (a path under /v1/embed is looked up without its "embed/").
const TOKEN_ROUTES = ["/v1/conversations", "/v1/models", "/v1/artifacts", "/v1/responses", "/v1/chat/completions"];

export function isCorsPath(path: string): boolean {
  const p = path.startsWith("/v1/embed/") ? `/v1/${path.slice("/v1/embed/".length)}` : path;
  return TOKEN_ROUTES.some((route) => p === route || p.startsWith(`${route}/`));
}

/** The headers for this request's origin, or {} when it has none or it is not allowed. */
export function corsHeaders(req: Request, allowed: string[]): Record<string, string> {
  const origin = req.headers.get("origin");
  if (!origin || !(allowed.includes(origin) || allowed.includes("*"))) return {};
  return {
    "access-control-allow-origin": origin,
    "access-control-expose-headers": "x-request-id",
    vary: "Origin",
  };
}

/** The answer to a preflight: the route's methods, and the headers the browser asked to send. */
export function preflight(req: Request, cors: Record<string, string>, methods: string[]): Response {
  if (!cors["access-control-allow-origin"]) return new Response(null, { status: 204 });
  return new Response(null, {
    status: 204,
    headers: {
      ...cors,
      "access-control-allow-methods": [...new Set([...methods, "OPTIONS"])].join(", "),
      "access-control-allow-headers": req.headers.get("access-control-request-headers") ?? "authorization, content-type, x-thesys-frontend-token",
      "access-control-max-age": "600",
    },
  });
}
