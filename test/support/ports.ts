// Ports for servers the tests start as processes (they cannot take port 0 and report back).
import { createServer } from "node:net";

/** A free TCP port on loopback (for servers started as processes). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
