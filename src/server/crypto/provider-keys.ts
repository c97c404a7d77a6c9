// Request-level provider keys (byok): AES-256-GCM with WebCrypto under the server's master key.
// The organization and provider are bound in as additional data, so a blob only opens for the
// organization it was made for and the provider it names. Blob: `tsk1.<key id>.<base64url(iv‖ct‖tag)>`;
// the key id says which master key sealed it, so old blobs still open after a rotation
// (TESSERA_MASTER_KEY_PREVIOUS: comma-separated base64 keys that may still decrypt).
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const FORMAT = "tsk1";
const IV_BYTES = 12;
/** `tsk1.<12 hex: key id>.<base64url without padding>`, anchored at both ends. */
const BLOB = /^tsk1\.([0-9a-f]{12})\.([A-Za-z0-9_-]+)$/;
type Env = Record<string, string | undefined>;

interface MasterKey { id: string; key: CryptoKey }

type Bytes = Uint8Array<ArrayBuffer>;

function decodeKey(b64: string, name: string): Bytes {
  const raw = new Uint8Array(Buffer.from(b64.trim(), "base64"));
  if (raw.length !== 32) throw new Error(`${name} must be the base64 of exactly 32 bytes`);
  return raw;
}

/** The master key from TESSERA_MASTER_KEY, else from a file made once in TESSERA_DATA_DIR (mode 0600). */
function currentRaw(env: Env): Bytes {
  if (env.TESSERA_MASTER_KEY) return decodeKey(env.TESSERA_MASTER_KEY, "TESSERA_MASTER_KEY");
  const dir = env.TESSERA_DATA_DIR || "./data";
  const file = join(dir, "master.key");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 }); // like the database's folder (src/db/connect.ts)
    const fresh = crypto.getRandomValues(new Uint8Array(32));
    try {
      // `wx`: if another process made it first, use theirs.
      writeFileSync(file, Buffer.from(fresh).toString("base64") + "\n", { mode: 0o600, flag: "wx" });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  chmodSync(file, 0o600);
  return decodeKey(readFileSync(file, "utf8"), file);
}

async function toMasterKey(raw: Bytes): Promise<MasterKey> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", raw));
  const id = Buffer.from(digest.slice(0, 6)).toString("hex");
  const key = await crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
  return { id, key };
}

const cache = new Map<string, Promise<MasterKey[]>>();

/** Current key first, then previous ones; cached per configuration. */
function masterKeys(env: Env): Promise<MasterKey[]> {
  const sig = `${env.TESSERA_MASTER_KEY ?? ""}|${env.TESSERA_DATA_DIR ?? ""}|${env.TESSERA_MASTER_KEY_PREVIOUS ?? ""}`;
  let keys = cache.get(sig);
  if (!keys) {
    const raws = [currentRaw(env)];
    for (const old of (env.TESSERA_MASTER_KEY_PREVIOUS ?? "").split(",").filter((s) => s.trim())) {
      raws.push(decodeKey(old, "TESSERA_MASTER_KEY_PREVIOUS"));
    }
    keys = Promise.all(raws.map(toMasterKey));
    cache.set(sig, keys);
  }
  return keys;
}

function aad(orgId: number, provider: string): Bytes {
  return new TextEncoder().encode(`tessera/provider-key/${FORMAT}\norg=${orgId}\nprovider=${provider.toLowerCase()}`);
}

export async function encryptProviderKey(orgId: number, provider: string, apiKey: string, env: Env = process.env): Promise<string> {
  const [current] = await masterKeys(env);
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const ct = new Uint8Array(await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: aad(orgId, provider) }, current!.key, new TextEncoder().encode(apiKey),
  ));
  const payload = new Uint8Array(IV_BYTES + ct.length);
  payload.set(iv);
  payload.set(ct, IV_BYTES);
  return `${FORMAT}.${current!.id}.${Buffer.from(payload).toString("base64url")}`;
}

/** The plain key, or null when the blob is malformed, tampered, or bound to another org or provider. */
export async function decryptProviderKey(orgId: number, provider: string, blob: string, env: Env = process.env): Promise<string | null> {
  // Exactly what encryptProviderKey writes, nothing before or after: Buffer's decoder skips
  // characters outside the alphabet and a trailing partial byte, and split() ignored a fourth
  // part, so a blob with bytes appended used to open.
  const m = BLOB.exec(blob);
  if (!m) return null;
  const [, id, data] = m;
  const mk = (await masterKeys(env)).find((k) => k.id === id);
  if (!mk) return null;
  const payload: Bytes = new Uint8Array(Buffer.from(data!, "base64url"));
  if (payload.length <= IV_BYTES + 16 || Buffer.from(payload).toString("base64url") !== data) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: payload.slice(0, IV_BYTES), additionalData: aad(orgId, provider) }, mk.key, payload.slice(IV_BYTES),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}

/** A key for another purpose (frontend-token signatures), derived from the current master key. */
export async function derivedHmacKey(purpose: string, env: Env = process.env): Promise<CryptoKey> {
  const raw = currentRaw(env);
  const base = await crypto.subtle.importKey("raw", raw, "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(32), info: new TextEncoder().encode(`tessera/${purpose}`) },
    base, { name: "HMAC", hash: "SHA-256", length: 256 }, false, ["sign"],
  );
}
