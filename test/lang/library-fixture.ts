// A small library that exercises every part of the schema subset the checker reads.
export const SMALL_LIBRARY = {
  id: "small",
  root: "Stack",
  schema: {
    $defs: {
      Stack: {
        properties: { children: { type: "array", items: {} }, direction: { type: "string", enum: ["row", "column"] } },
        required: ["children"],
      },
      Card: {
        properties: {
          title: { type: "string" },
          children: { type: "array", items: { anyOf: [{ $ref: "#/$defs/Text" }, { $ref: "#/$defs/Button" }] } },
        },
        required: ["title"],
      },
      Text: {
        properties: { text: { type: "string" }, size: { type: "string", enum: ["s", "m", "l"], default: "m" } },
        required: ["text", "size"],
      },
      Button: {
        properties: { label: { type: "string" }, action: { type: "string" }, count: { type: "integer" } },
        required: ["label"],
      },
      Table: {
        properties: { columns: { type: "array", items: { $ref: "#/$defs/Col" } }, rows: { type: "array", items: { type: "array" } } },
        required: ["columns", "rows"],
      },
      Col: {
        properties: { label: { type: "string" }, meta: { type: "object", properties: { width: { type: "number" } } } },
        required: ["label"],
      },
    },
  },
  componentGroups: [{ name: "Layout", components: ["Stack", "Card"] }],
};
