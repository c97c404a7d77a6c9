// A body that never arrives whole (the client hangs up mid-body, or the chunked encoding is
// malformed) is the client's doing: logged as an aborted request, never as an unhandled error.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect } from "node:net";
import { eventually } from "../support/eventually.ts";
import { startHarness, type Harness } from "./harness.ts";

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await startHarness();
  key = await h.org("aborts", 10);
});
afterAll(() => h.close());

/** Writes the request head and a part of a body, then whatever `then` does with the socket. */
function send(path: string, head: string, body: string, then: "hang-up" | "wait"): Promise<string> {
  return new Promise((resolve) => {
    let answer = "";
    const socket = connect(h.server.port, "127.0.0.1", () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n${head}\r\n${body}`);
      if (then === "hang-up") setTimeout(() => socket.destroy(), 50);
    });
    socket.on("data", (d) => (answer += d));
    socket.on("close", () => resolve(answer));
    socket.on("error", () => {});
    socket.setTimeout(2000, () => socket.destroy());
  });
}

async function loggedFor(path: string): Promise<string[]> {
  await eventually(() => h.lines.some((l) => l.includes(` ${path} `) && /aborted|unhandled/.test(l)), Boolean, { ms: 500 }).catch(() => {});
  const lines = h.lines.filter((l) => l.includes(path));
  h.lines.length = 0;
  return lines;
}

for (const path of ["/v1/autofix", "/v1/embed/chat/completions", "/encryption/encrypt"]) {
  test(`${path}: a client that hangs up mid-body is an aborted request in the log`, async () => {
    await send(path, "Content-Type: application/json\r\nContent-Length: 1000\r\n", '{"messages":[', "hang-up");
    const lines = await loggedFor(path);
    expect(lines.join("\n")).not.toContain("unhandled");
    expect(lines.some((l) => l.startsWith(`aborted request POST ${path} `))).toBe(true);
  });

  test(`${path}: a malformed chunked body is an aborted request in the log`, async () => {
    const answer = await send(path, "Transfer-Encoding: chunked\r\n", '5\r\n{"mes\r\nzz\r\nabc\r\n0\r\n\r\n', "wait");
    expect(answer).toStartWith("HTTP/1.1 400");
    const lines = await loggedFor(path);
    expect(lines.join("\n")).not.toContain("unhandled");
    expect(lines.some((l) => l.startsWith(`aborted request POST ${path} `))).toBe(true);
  });
}
