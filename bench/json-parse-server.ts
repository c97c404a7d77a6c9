// The anchor of bench/server.ts: a Bun server that only JSON.parses the body it is sent, in a
// process of its own, as Tessera's server is in its own. Run by the bench; prints its address.
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    const parsed = JSON.parse(await req.text()) as { messages: unknown[] };
    return Response.json({ messages: parsed.messages.length });
  },
});
console.log(`listening on http://${server.hostname}:${server.port}`);
