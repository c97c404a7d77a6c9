// Every surface the server offers: app.ts serves their routes, main.ts runs their jobs.
import type { Surface } from "../surface.ts";
import { artifacts } from "./artifacts/index.ts";
import { autofix } from "./autofix/index.ts";
import { conversations } from "./conversations/index.ts";
import { embed } from "./embed/index.ts";
import { encryption } from "./encryption/index.ts";
import { frontendTokens } from "./frontend-tokens/index.ts";
import { health } from "./health/index.ts";
import { models } from "./models/index.ts";
import { monitoring } from "./monitoring/index.ts";
import { responses } from "./responses/index.ts";

export const SURFACES: readonly Surface[] = [health, monitoring, autofix, embed, encryption, responses, conversations, models, frontendTokens, artifacts];
