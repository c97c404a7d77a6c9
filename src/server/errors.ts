// Shared by every route (Autofix, Embed, encryption, …): OpenAI's error body,
// `{"error": {"message", "type", "param", "code"}}`, with the `type` that belongs to each status.
const TYPE_BY_STATUS: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  405: "invalid_request_error",
  413: "invalid_request_error",
  429: "rate_limit_error",
  500: "internal_server_error",
  502: "upstream_error",
  503: "service_unavailable_error",
  504: "upstream_timeout_error",
};

export interface ErrorOptions {
  param?: string | null;
  code?: string | null;
  headers?: Record<string, string>;
}

export function errorType(status: number): string {
  return TYPE_BY_STATUS[status] ?? (status >= 500 ? "internal_server_error" : "invalid_request_error");
}

export function errorBody(status: number, message: string, opts: ErrorOptions = {}) {
  return { error: { message, type: errorType(status), param: opts.param ?? null, code: opts.code ?? null } };
}

export function errorResponse(status: number, message: string, opts: ErrorOptions = {}): Response {
  return Response.json(errorBody(status, message, opts), { status, headers: opts.headers });
}

/**
 * Thrown inside handlers to end a request with a wire-format error; app.ts turns it into the
 * response, so helpers deep in a route can refuse a request without threading Responses back.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly opts: ErrorOptions = {},
  ) {
    super(message);
  }
  toResponse(): Response {
    return errorResponse(this.status, this.message, this.opts);
  }
}
