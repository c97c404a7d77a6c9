// Which addresses a caller's URL may reach: every private, loopback, link-local and metadata form,
// as the URL parser leaves it (numeric and shortened IPv4, IPv6 with IPv4 inside), and the allow-list.
import { describe, expect, test } from "bun:test";
import { addressProblem, isAllowedHost, parseAllowedHosts } from "../../../src/server/hosted/address.ts";

/** The host as fetch would reach it: what the URL parser makes of it. */
const hostOf = (s: string) => new URL(`http://${s}/`).hostname;

describe("addressProblem", () => {
  const refused = [
    "127.0.0.1",
    "127.1",
    "2130706433",
    "0x7f.1",
    "0x7f000001",
    "017700000001",
    "0.0.0.0",
    "0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.100.100.200",
    "100.64.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "198.18.0.1",
    "[::1]",
    "[::]",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "[::ffff:a9fe:a9fe]",
    "[::127.0.0.1]",
    "[64:ff9b::a9fe:a9fe]",
    "[2002:7f00:1::]",
    "[fd00:ec2::254]",
    "[fc00::1]",
    "[fe80::1]",
    "[fe80::1%25eth0]",
    "[ff02::1]",
    "[fec0::1]",
    "[0:0:0:0:0:ffff:10.0.0.1]",
  ];
  for (const raw of refused) {
    test(`${raw} is refused`, () => {
      let host: string;
      try {
        host = hostOf(raw);
      } catch {
        return;
      } // a host the URL parser rejects cannot be fetched at all
      expect(addressProblem(host)).not.toBeNull();
    });
  }
  const allowed = ["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "169.255.0.1", "[2606:4700:4700::1111]", "[::ffff:8.8.8.8]", "[2002:808:808::]"];
  for (const raw of allowed) test(`${raw} is public`, () => expect(addressProblem(hostOf(raw))).toBeNull());
  test("names and garbage are not addresses", () => {
    expect(addressProblem("localhost")).toContain("not an IP address");
    expect(addressProblem("1:2:3:4:5:6:7:8:9")).toContain("not an IP address");
    expect(addressProblem("[1::2::3]")).toContain("not an IP address");
  });
  test("the reason names the range", () => {
    expect(addressProblem("169.254.169.254")).toContain("metadata");
    expect(addressProblem(hostOf("[::ffff:127.0.0.1]"))).toContain("IPv4-mapped a loopback");
  });
});

describe("TESSERA_PRIVATE_HOSTS_ALLOWED", () => {
  const list = parseAllowedHosts("127.0.0.1:8080, internal.example , [::1]:9000");
  test("host with a port: that port only", () => {
    expect(isAllowedHost(new URL("http://127.0.0.1:8080/mcp"), list)).toBe(true);
    expect(isAllowedHost(new URL("http://127.0.0.1:8081/mcp"), list)).toBe(false);
  });
  test("numeric forms of an allowed address are the same address", () => {
    expect(isAllowedHost(new URL("http://2130706433:8080/"), list)).toBe(true);
    expect(isAllowedHost(new URL("http://[::ffff:127.0.0.1]:8080/"), list)).toBe(true);
  });
  test("a host without a port: any port; scheme default ports count", () => {
    expect(isAllowedHost(new URL("https://internal.example/"), list)).toBe(true);
    expect(isAllowedHost(new URL("http://internal.example:1234/"), list)).toBe(true);
    expect(isAllowedHost(new URL("http://[::1]:9000/"), list)).toBe(true);
    expect(isAllowedHost(new URL("http://[::1]/"), list)).toBe(false);
  });
  test("a malformed entry is an error at start", () => {
    expect(() => parseAllowedHosts("a:b:c")).toThrow("host[:port]");
    expect(parseAllowedHosts("")).toEqual([]);
  });
});
