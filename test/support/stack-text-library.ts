// Stack and Text, a small library: enough components to write valid and broken programs by hand, and the one the
// ~100k program of bench/server.ts is written against. Shared by tests and benches.
export const STACK_TEXT_LIBRARY = {
  id: "small",
  root: "Stack",
  schema: {
    $defs: {
      Stack: { type: "object", properties: { children: { type: "array", items: {} } }, required: ["children"] },
      Text: {
        type: "object",
        properties: { text: { type: "string" }, size: { type: "string", enum: ["small", "large"] } },
        required: ["text"],
      },
    },
  },
};
