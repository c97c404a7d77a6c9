// An OpenUI app as its users write one: @openuidev/react-ui's AgentInterface with the library
// react-ui exports, talking to Tessera directly through @tessera-ui/tessera/openui. Its server part is one
// route, /token, which mints a frontend token with the API key. Bundled by esbuild in
// test/server/openui-browser.test.ts (JSX, so plain JavaScript); configured by window.APP.
import { createRoot } from "react-dom/client";
import { AgentInterface } from "@openuidev/react-ui";
import { openuiChatLibrary } from "@openuidev/react-ui/genui-lib";
import { libraryConfig } from "../../../src/client/index.ts";
import { tesseraChat } from "../../../src/openui/index.ts";

const app = window.APP;
// The library's JSON (its spec without the component functions) goes to Tessera in the config block.
const { components: _components, ...chatLibrary } = openuiChatLibrary.toSpec();
const { llm, storage } = tesseraChat({
  baseUrl: app.base,
  model: app.model,
  instructions: libraryConfig(chatLibrary),
  token: () => fetch("/token", { method: "POST" }).then((r) => r.json()),
});

createRoot(document.getElementById("app")).render(<AgentInterface llm={llm} storage={storage} componentLibrary={openuiChatLibrary} agentName="Tessera" />);
