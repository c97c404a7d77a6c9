// A stand-in OpenAI in its own process, for tests that run the service as a reader would (the
// README's quickstart): `bun test/support/stand-in-openai.ts` prints its base URL (what
// OPENAI_BASE_URL takes) on one line and serves until its stdin closes. Its answer names the last
// user text and how many messages the request carried, so a caller can see earlier turns arrive.
import { startFakeOpenAI } from "./fake-providers.ts";

const fake = startFakeOpenAI();
fake.responder = (body) => {
  const messages: { role: string; content: unknown }[] = body.messages;
  const last = messages.at(-1)?.content;
  const text = typeof last === "string" ? last : JSON.stringify(last);
  return { text: `Stand-in answer to "${text}" (${messages.length} messages)` };
};
console.log(fake.url);
process.stdin.on("end", () => {
  fake.stop();
  process.exit(0);
});
process.stdin.resume();
