// Provider keys sealed for an organization (byok): the blob a request may carry instead of the key.
// The route answers at /encryption/encrypt and, beside the other routes, at /v1/encryption/encrypt.
import { route, type Surface } from "../../surface.ts";
import { encryptKey } from "./routes.ts";

export const encryption: Surface = {
  name: "encryption",
  routes: [route("POST", "/encryption/encrypt", "key", encryptKey), route("POST", "/v1/encryption/encrypt", "key", encryptKey)],
};
