// A stand-in fixing model (OpenAI chat-completions wire) that holds every request until the test
// releases it: paid calls stay in flight while a server is killed, stopped or replicated.
export interface HeldModel {
  port: number;
  /** Requests that have reached it so far. */
  arrived(): number;
  /** Answers every request waiting now. */
  release(): void;
  stop(): void;
}

export function startHeldModel(content: string): HeldModel {
  let waiting: (() => void)[] = [];
  let arrived = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const body = await req.json();
      arrived++;
      await new Promise<void>((resolve) => waiting.push(resolve));
      return Response.json({
        id: "chatcmpl-slow",
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, finish_reason: "stop", logprobs: null, message: { role: "assistant", content, refusal: null } }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      });
    },
  });
  return {
    port: server.port!,
    arrived: () => arrived,
    release() {
      const go = waiting;
      waiting = [];
      for (const resolve of go) resolve();
    },
    stop: () => server.stop(true),
  };
}
