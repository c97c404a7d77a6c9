// Fetches made on a caller's behalf (a remote MCP server named in a request): the URL must be
// http(s) and every address its host resolves to public (address.ts), unless the host is on the
// operator's allow-list; redirects are followed by hand, each hop checked again; the wait for an
// answer and the size of its body are bounded. Search backends are the operator's own
// configuration and do not come through here.
import { lookup } from "node:dns/promises";
import { addressProblem, isAllowedHost, isIpLiteral, type AllowedHost } from "./address.ts";

export interface OutboundPolicy {
  allowed: readonly AllowedHost[];
  /** Longest wait for the answer's status line and headers, per hop. */
  headersTimeoutMs: number;
  /** The most bytes an answer's body may have; a longer one ends in an error. */
  maxBodyBytes: number;
  /** The most redirects followed. */
  maxRedirects: number;
  /** Name resolution (tests may answer for names that do not exist). */
  resolve?: (host: string) => Promise<string[]>;
}

export const DEFAULT_OUTBOUND: Omit<OutboundPolicy, "allowed"> = {
  headersTimeoutMs: 15_000,
  maxBodyBytes: 8 * 1024 * 1024,
  maxRedirects: 5,
};

/** A URL that may not be fetched: the message says which rule refused it (no credential in it). */
export class OutboundRefused extends Error {
  override name = "OutboundRefused";
}

async function resolveAll(host: string): Promise<string[]> {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
}

/** Refuses a URL the service may not fetch for a caller; resolves its host to check every address. */
export async function checkUrl(url: URL, policy: OutboundPolicy): Promise<void> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new OutboundRefused(`${url.protocol} URLs cannot be fetched: use http or https`);
  if (url.username || url.password)
    throw new OutboundRefused("URLs with a user name or password in them cannot be fetched: send credentials as headers or authorization");
  if (isAllowedHost(url, policy.allowed)) return;
  const host = url.hostname;
  let addresses: string[];
  if (isIpLiteral(host)) addresses = [host];
  else {
    try {
      addresses = await (policy.resolve ?? resolveAll)(host);
    } catch {
      throw new OutboundRefused(`the host ${host} could not be resolved`);
    }
    if (addresses.length === 0) throw new OutboundRefused(`the host ${host} could not be resolved`);
  }
  for (const a of addresses) {
    const problem = addressProblem(a);
    if (problem) {
      throw new OutboundRefused(
        `${url.host} resolves to ${problem}: the service does not fetch private or internal addresses for a caller (an operator may allow a host with TESSERA_PRIVATE_HOSTS_ALLOWED)`,
      );
    }
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A fetch with the policy applied: usable wherever a `fetch` is taken (the MCP SDK's transports).
 * A caller that asks for `redirect: "manual"` gets the redirect answer itself (and checks the next
 * hop through this same fetch); otherwise redirects are followed here, each hop checked.
 */
export function guardedFetch(policy: OutboundPolicy): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init = {}) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    let req: RequestInit =
      input instanceof Request ? { method: input.method, headers: input.headers, body: input.body, signal: input.signal, ...init } : { ...init };
    for (let hop = 0; ; hop++) {
      await checkUrl(url, policy);
      const timeout = AbortSignal.timeout(policy.headersTimeoutMs);
      const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
      let res: Response;
      try {
        res = await fetch(url, { ...req, redirect: "manual", signal });
      } catch (e) {
        if (timeout.aborted && !req.signal?.aborted) throw new OutboundRefused(`${url.host} did not answer within ${policy.headersTimeoutMs} ms`);
        throw e;
      }
      if (!REDIRECTS.has(res.status) || init.redirect === "manual") return bounded(res, policy.maxBodyBytes, req.signal ?? undefined);
      const location = res.headers.get("location");
      await res.body?.cancel().catch(() => {});
      if (!location) return bounded(res, policy.maxBodyBytes, req.signal ?? undefined);
      if (init.redirect === "error") throw new OutboundRefused(`${url.host} answered with a redirect`);
      if (hop >= policy.maxRedirects) throw new OutboundRefused(`more than ${policy.maxRedirects} redirects`);
      const next = new URL(location, url);
      // A redirect to another origin does not carry the caller's credentials along.
      if (next.origin !== url.origin) req = { ...req, headers: withoutCredentials(req.headers) };
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && req.method === "POST")) req = { ...req, method: "GET", body: undefined };
      url = next;
    }
  };
}

function withoutCredentials(headers: RequestInit["headers"]): Headers {
  const h = new Headers(headers);
  for (const name of ["authorization", "cookie", "proxy-authorization"]) h.delete(name);
  return h;
}

/** The answer with its body cut off (as an error) past `max` bytes. */
function bounded(res: Response, max: number, signal?: AbortSignal): Response {
  if (!res.body || res.status === 204 || res.status === 205 || res.status === 304) return res;
  const length = Number(res.headers.get("content-length"));
  if (Number.isFinite(length) && length > max) {
    void res.body.cancel().catch(() => {});
    throw new OutboundRefused(`the answer is larger than ${max} bytes`);
  }
  let seen = 0;
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      if (signal?.aborted) {
        ctrl.error(signal.reason);
        return;
      }
      const { done, value } = await reader.read();
      if (done) return ctrl.close();
      seen += value.byteLength;
      if (seen > max) {
        void reader.cancel().catch(() => {});
        ctrl.error(new OutboundRefused(`the answer is larger than ${max} bytes`));
        return;
      }
      ctrl.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
