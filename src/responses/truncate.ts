// `truncation: "auto"` (Responses): when the model's context window cannot hold the conversation,
// the oldest turns are left out of what is sent, never the instructions nor the turn being
// answered. Pure: chat messages in, fewer chat messages out.
import type { ChatMessage } from "../chat/types.ts";

/**
 * The messages without the older half of the turns before the last one (a turn runs from a user
 * message to the next, tool calls and their results inside it, so none is parted from its call);
 * system and developer messages at the start stay. Null when only the last turn is left.
 */
export function withoutOldestTurns(messages: readonly ChatMessage[]): ChatMessage[] | null {
  let first = 0;
  while (first < messages.length && (messages[first].role === "system" || messages[first].role === "developer")) first++;
  const turns: number[] = [];
  for (let i = first; i < messages.length; i++) if (messages[i].role === "user") turns.push(i);
  // Messages before the first user message (an assistant's opening) go with the oldest turns.
  const older = turns.length - 1;
  if (older < 1 && !(turns.length === 1 && turns[0] > first)) return null;
  const keepFrom = older < 1 ? turns[0] : turns[Math.ceil(older / 2)];
  return [...messages.slice(0, first), ...messages.slice(keepFrom)];
}
