// WebSocket mode beyond the compliance suite: bad frames are error events on a socket that stays
// open, a frame nests no deeper than a body may, the upgrade needs the API key.
import { expect, test } from "bun:test";
import { embedSuite } from "../../embed-harness.ts";

const S = embedSuite("ws-acme", 10);

const url = () => `${S.E.h.base.replace("http", "ws")}/v1/embed/responses`;

/** Sends each frame after the previous turn's last event; returns every turn's events. */
function session(frames: string[], bearer = S.key): Promise<any[][]> {
  return new Promise((resolve, reject) => {
    const turns: any[][] = frames.map(() => []);
    let i = 0;
    const ws = new (WebSocket as any)(url(), { headers: { authorization: `Bearer ${bearer}` } }) as WebSocket;
    ws.onopen = () => ws.send(frames[0]!);
    ws.onerror = () => reject(new Error("socket failed"));
    ws.onmessage = (m) => {
      const ev = JSON.parse(String(m.data));
      turns[i]!.push(ev);
      if (ev.type === "error" || /^response\.(completed|failed|incomplete)$/.test(ev.type)) {
        if (++i === frames.length) {
          ws.close();
          resolve(turns);
        } else ws.send(frames[i]!);
      }
    };
  });
}

test("bad frames are error events with the wire-format error, and the socket serves the next turn", async () => {
  const deep = `{"type":"response.create","model":"openai/x","input":${"[".repeat(5000)}${"]".repeat(5000)}}`;
  const [notJson, wrongType, tooDeep, hosted, ok] = await session([
    "not json",
    JSON.stringify({ type: "response.cancel" }),
    deep,
    JSON.stringify({ type: "response.create", model: "openai/x", input: "hi", tools: [{ type: "web_search" }] }),
    JSON.stringify({ type: "response.create", model: "openai/x", input: "hi" }),
  ]);
  expect(notJson![0]).toMatchObject({ type: "error", status: 400, error: { code: "invalid_json", type: "invalid_request_error" } });
  expect(wrongType![0].error.message).toContain("response.create");
  expect(tooDeep![0]).toMatchObject({ type: "error", status: 400, error: { code: "json_too_deep" } });
  expect(hosted![0].error.message).toContain("web_search");
  expect(ok!.at(-1)).toMatchObject({ type: "response.completed", response: { status: "completed" } });
  expect(ok!.map((x) => x.sequence_number)).toEqual(ok!.map((_, k) => k));
});

test("the upgrade needs a valid API key: 401 otherwise, 403 for a frontend token", async () => {
  const http = `${S.E.h.base}/v1/embed/responses`;
  const bad = await fetch(http, {
    headers: {
      upgrade: "websocket",
      connection: "Upgrade",
      "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      "sec-websocket-version": "13",
      authorization: "Bearer tsk_nope_nope_nope",
    },
  });
  expect(bad.status).toBe(401);
  const token = (
    await (
      await fetch(`${S.E.h.base}/v1/frontend-tokens`, {
        method: "POST",
        headers: { authorization: `Bearer ${S.key}`, "content-type": "application/json" },
        body: JSON.stringify({ user: "u" }),
      })
    ).json()
  ).token;
  const denied = await fetch(http, {
    headers: {
      upgrade: "websocket",
      connection: "Upgrade",
      "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      "sec-websocket-version": "13",
      authorization: `Bearer ${token}`,
    },
  });
  expect(denied.status).toBe(403);
});
