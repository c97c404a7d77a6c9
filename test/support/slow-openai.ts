// A stand-in OpenAI chat-completions server that streams slowly (one text piece every `delayMs`),
// in the real wire format (the whole answer after the same time when no stream is asked for): for
// background runs, cancels and restarts, which need a turn in flight.
export interface SlowOpenAI {
  url: string;
  started: number /** Every request body, in order. */;
  bodies: any[];
  stop(): void;
}

export function startSlowOpenAI(pieces = 40, delayMs = 50): SlowOpenAI {
  const enc = new TextEncoder();
  const slow: SlowOpenAI = { url: "", started: 0, bodies: [], stop: () => server.stop(true) };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const body = await req.json();
      slow.started++;
      slow.bodies.push(body);
      const usage = { prompt_tokens: 5, completion_tokens: pieces, total_tokens: 5 + pieces };
      if (body.stream !== true) {
        // The whole answer, as the OpenAI wire sends it when no stream is asked for: after the same time.
        await Bun.sleep(delayMs * pieces);
        const content = Array.from({ length: pieces }, (_, k) => `w${k} `).join("");
        const message = { role: "assistant", content };
        return Response.json({
          id: "chatcmpl-slow",
          object: "chat.completion",
          created: 0,
          model: body.model,
          choices: [{ index: 0, message, finish_reason: "stop" }],
          usage,
        });
      }
      const base = { id: "chatcmpl-slow", object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: body.model };
      const frame = (o: unknown) => enc.encode(`data: ${JSON.stringify(o)}\n\n`);
      let i = 0;
      const stream = new ReadableStream<Uint8Array>({
        async pull(ctrl) {
          if (i < pieces) {
            await Bun.sleep(delayMs);
            ctrl.enqueue(frame({ ...base, choices: [{ index: 0, delta: { content: `w${i} ` }, finish_reason: null }] }));
            i++;
            return;
          }
          ctrl.enqueue(frame({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
          ctrl.enqueue(frame({ ...base, choices: [], usage }));
          ctrl.enqueue(enc.encode("data: [DONE]\n\n"));
          ctrl.close();
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    },
  });
  slow.url = `http://127.0.0.1:${server.port}/v1`;
  return slow;
}
