// @openuidev/thesys's chat library (what {"libraryVersion":"0.1.0"} names) on its own, for code that
// needs only the default and should not carry every built-in library (the @tessera-ui/tessera/client bundle).
import thesysChat from "./openui/thesys-chat.json" with { type: "json" };

export const defaultChatLibrary = thesysChat.chatLibrary as Record<string, unknown>;
