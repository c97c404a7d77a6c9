// Which network addresses a URL fetched for a caller may reach (pure). Loopback, private,
// link-local, metadata, multicast and reserved ranges are refused, in IPv4 and IPv6 alike, and an
// IPv6 address that carries an IPv4 one (mapped, compatible, NAT64, 6to4) is judged by that IPv4
// address. Hosts named in TESSERA_PRIVATE_HOSTS_ALLOWED (`host[:port]`, comma-separated) pass.

/** Why an IPv4 address is refused, or null when it is public. `a` is its four bytes. */
function ipv4Problem(a: number[]): string | null {
  const [x, y] = a as [number, number, number, number];
  if (x === 0) return "a 'this network' address (0.0.0.0/8)";
  if (x === 10) return "a private address (10.0.0.0/8)";
  if (x === 100 && y >= 64 && y <= 127) return "a shared carrier-grade NAT address (100.64.0.0/10), where some clouds keep metadata services";
  if (x === 127) return "a loopback address (127.0.0.0/8)";
  if (x === 169 && y === 254) return "a link-local address (169.254.0.0/16), where cloud metadata services answer";
  if (x === 172 && y >= 16 && y <= 31) return "a private address (172.16.0.0/12)";
  if (x === 192 && y === 168) return "a private address (192.168.0.0/16)";
  if (x === 192 && y === 0 && a[2] === 0) return "an IETF protocol address (192.0.0.0/24)";
  if (x === 198 && (y === 18 || y === 19)) return "a benchmarking address (198.18.0.0/15)";
  if (x >= 224) return "a multicast or reserved address (224.0.0.0/3)";
  return null;
}

/** The four bytes of a dotted IPv4 address in its canonical form (as the URL parser leaves it), else null. */
function parseIpv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const bytes = m.slice(1).map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

/** The eight 16-bit groups of an IPv6 address (brackets and a zone allowed), else null. */
function parseIpv6(host: string): number[] | null {
  let h = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  h = h.replace(/%.*$/, "");
  if (!h.includes(":")) return null;
  let tail: number[] = [];
  const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(h);
  if (v4) {
    const b = parseIpv4(v4[1]!);
    if (!b) return null;
    tail = [(b[0]! << 8) | b[1]!, (b[2]! << 8) | b[3]!];
    h = h.slice(0, -v4[1]!.length);
    if (h.endsWith(":") && !h.endsWith("::")) h = h.slice(0, -1);
  }
  const halves = h.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const read = (parts: string[]) => parts.map((p) => (/^[0-9a-f]{1,4}$/i.test(p) ? parseInt(p, 16) : NaN));
  const head = read(groups(halves[0]!));
  const rest = halves.length === 2 ? read(groups(halves[1]!)) : [];
  const known = head.length + rest.length + tail.length;
  if (head.some(Number.isNaN) || rest.some(Number.isNaN)) return null;
  if (halves.length === 1 && known !== 8) return null;
  if (halves.length === 2 && known > 7) return null;
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest, ...tail];
}

const v4Of = (g: number[], at: number) => [g[at]! >> 8, g[at]! & 255, g[at + 1]! >> 8, g[at + 1]! & 255];

function ipv6Problem(g: number[]): string | null {
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(8)) return "the unspecified address (::)";
  if (zeros(7) && g[7] === 1) return "a loopback address (::1)";
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated): the IPv4 address decides.
  if (zeros(5) && g[5] === 0xffff) return ipv4Problem(v4Of(g, 6)) && `an IPv4-mapped ${ipv4Problem(v4Of(g, 6))}`;
  if (zeros(6)) return ipv4Problem(v4Of(g, 6)) && `an IPv4-compatible ${ipv4Problem(v4Of(g, 6))}`;
  // 64:ff9b::/96 (NAT64) and 2002::/16 (6to4) reach the IPv4 address they embed.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return ipv4Problem(v4Of(g, 6)) && `a NAT64 form of ${ipv4Problem(v4Of(g, 6))}`;
  if (g[0] === 0x2002) return ipv4Problem(v4Of(g, 1)) && `a 6to4 form of ${ipv4Problem(v4Of(g, 1))}`;
  if ((g[0]! & 0xfe00) === 0xfc00) return "a unique-local address (fc00::/7), where some clouds keep metadata services";
  if ((g[0]! & 0xffc0) === 0xfe80) return "a link-local address (fe80::/10)";
  if ((g[0]! & 0xffc0) === 0xfec0) return "a site-local address (fec0::/10)";
  if ((g[0]! & 0xff00) === 0xff00) return "a multicast address (ff00::/8)";
  return null;
}

/** Whether `host` is an IP literal (IPv4 dotted, or IPv6 with or without brackets). */
export function isIpLiteral(host: string): boolean {
  return parseIpv4(host) !== null || parseIpv6(host) !== null;
}

/**
 * Why an IP address may not be reached on a caller's behalf, or null when it may. Anything that is
 * not an IP address is refused too (the caller resolves names first).
 */
export function addressProblem(ip: string): string | null {
  const v4 = parseIpv4(ip);
  if (v4) return ipv4Problem(v4);
  const v6 = parseIpv6(ip);
  if (v6) return ipv6Problem(v6);
  return `not an IP address: ${JSON.stringify(ip)}`;
}

/** One entry of TESSERA_PRIVATE_HOSTS_ALLOWED: a host, and a port when one was given. */
export interface AllowedHost {
  host: string;
  port: string | null;
}

/** `host[:port]` entries, comma-separated; IPv6 hosts in brackets (`[::1]:8080`). */
export function parseAllowedHosts(value: string | undefined): AllowedHost[] {
  const out: AllowedHost[] = [];
  for (const raw of (value ?? "").split(",")) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const bracketed = /^(\[[^\]]+\])(?::(\d+))?$/.exec(entry);
    if (bracketed) {
      out.push({ host: bracketed[1]!, port: bracketed[2] ?? null });
      continue;
    }
    const m = /^([^:[\]]+)(?::(\d+))?$/.exec(entry);
    if (!m) throw new Error(`TESSERA_PRIVATE_HOSTS_ALLOWED: ${JSON.stringify(raw.trim())} is not host[:port] (IPv6 hosts go in brackets)`);
    out.push({ host: m[1]!, port: m[2] ?? null });
  }
  return out;
}

/** The port a URL reaches: its own, or its scheme's default. */
export function portOf(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

/**
 * Whether the URL's host (as the URL parser normalised it: `127.1` and `2130706433` both read as
 * 127.0.0.1) and port are on the allow-list. IP literals are compared as addresses, so that
 * `[::ffff:127.0.0.1]` is not a way around an entry of `127.0.0.1` or the other way round.
 */
export function isAllowedHost(url: URL, allowed: readonly AllowedHost[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = portOf(url);
  const key = addressKey(host);
  return allowed.some((a) => (a.port === null || a.port === port) && (a.host === host || (key !== null && addressKey(canonicalHost(a.host)) === key)));
}

/** An entry's host as the URL parser would write it (so `127.1` or `0x7f.0.0.1` in the list mean 127.0.0.1). */
function canonicalHost(host: string): string {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return host;
  }
}

/** A comparable form of an IP literal (IPv4-mapped IPv6 as its IPv4 address), or null for a name. */
function addressKey(host: string): string | null {
  const v4 = parseIpv4(host);
  if (v4) return v4.join(".");
  const g = parseIpv6(host);
  if (!g) return null;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4Of(g, 6).join(".");
  return g.map((x) => x.toString(16)).join(":");
}
