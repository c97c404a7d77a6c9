// The server's master keys, opened once at start (main.ts) from the configuration, and what is
// sealed with them: AES-256-GCM with WebCrypto, the organization and a binding (the provider a
// request-level key is for, or COMPACTION_SEAL for a compaction's summary) bound in as additional
// data, so a blob only opens for the organization it was made for and the binding it names.
// Blob: `tsk1.<key id>.<base64url(iv‖ct‖tag)>`; the key id says which master key sealed it, so old
// blobs still open after a rotation (TESSERA_MASTER_KEY_PREVIOUS). Other keys (frontend-token
// signatures) are derived from the current master key with HKDF.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerConfig } from "../config.ts";

const FORMAT = "tsk1";
const IV_BYTES = 12;
/** `tsk1.<12 hex: key id>.<base64url without padding>`, anchored at both ends. */
const BLOB = /^tsk1\.([0-9a-f]{12})\.([A-Za-z0-9_-]+)$/;

interface MasterKey {
  id: string;
  key: CryptoKey;
}

type Bytes = Uint8Array<ArrayBuffer>;

export type KeyringConfig = Pick<ServerConfig, "masterKey" | "previousMasterKeys" | "dataDir">;

function decodeKey(b64: string, name: string): Bytes {
  const raw = new Uint8Array(Buffer.from(b64.trim(), "base64"));
  if (raw.length !== 32) throw new Error(`${name} must be the base64 of exactly 32 bytes`);
  return raw;
}

/** The master key from TESSERA_MASTER_KEY, else from a file made once in TESSERA_DATA_DIR (mode 0600). */
function currentRaw(cfg: KeyringConfig): Bytes {
  if (cfg.masterKey) return decodeKey(cfg.masterKey, "TESSERA_MASTER_KEY");
  const file = join(cfg.dataDir, "master.key");
  if (!existsSync(file)) {
    mkdirSync(cfg.dataDir, { recursive: true, mode: 0o700 }); // like the database's folder (src/db/connect.ts)
    const fresh = crypto.getRandomValues(new Uint8Array(32));
    try {
      // `wx`: if another process made it first, use theirs.
      writeFileSync(file, `${Buffer.from(fresh).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
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

function aad(orgId: number, binding: string): Bytes {
  return new TextEncoder().encode(`tessera/provider-key/${FORMAT}\norg=${orgId}\nprovider=${binding.toLowerCase()}`);
}

export class Keyring {
  private readonly derived = new Map<string, Promise<CryptoKey>>();

  private constructor(
    /** Current key first, then previous ones. */
    private readonly keys: MasterKey[],
    private readonly currentBytes: Bytes,
  ) {}

  /** Reads (or makes, once) the master key and the previous ones; a bad key stops here, named. */
  static async open(cfg: KeyringConfig): Promise<Keyring> {
    const current = currentRaw(cfg);
    const raws = [current, ...cfg.previousMasterKeys.map((old) => decodeKey(old, "TESSERA_MASTER_KEY_PREVIOUS"))];
    return new Keyring(await Promise.all(raws.map(toMasterKey)), current);
  }

  /** Seals `text` for the organization and the binding (a provider id, or COMPACTION_SEAL). */
  async seal(orgId: number, binding: string, text: string): Promise<string> {
    const current = this.keys[0]!;
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const ct = new Uint8Array(
      await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: aad(orgId, binding) }, current.key, new TextEncoder().encode(text)),
    );
    const payload = new Uint8Array(IV_BYTES + ct.length);
    payload.set(iv);
    payload.set(ct, IV_BYTES);
    return `${FORMAT}.${current.id}.${Buffer.from(payload).toString("base64url")}`;
  }

  /** What `seal` sealed, or null when the blob is malformed, tampered, or bound to another org or binding. */
  async open(orgId: number, binding: string, blob: string): Promise<string | null> {
    // Exactly what seal writes, nothing before or after: Buffer's decoder skips characters
    // outside the alphabet and a trailing partial byte, and split() ignored a fourth part, so a
    // blob with bytes appended used to open.
    const m = BLOB.exec(blob);
    if (!m) return null;
    const [, id, data] = m;
    const mk = this.keys.find((k) => k.id === id);
    if (!mk) return null;
    const payload: Bytes = new Uint8Array(Buffer.from(data!, "base64url"));
    if (payload.length <= IV_BYTES + 16 || Buffer.from(payload).toString("base64url") !== data) return null;
    try {
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: payload.slice(0, IV_BYTES), additionalData: aad(orgId, binding) },
        mk.key,
        payload.slice(IV_BYTES),
      );
      return new TextDecoder().decode(plain);
    } catch {
      return null;
    }
  }

  /** An HMAC key for another purpose (frontend-token signatures), derived from the current master key. */
  hmacKey(purpose: string): Promise<CryptoKey> {
    let k = this.derived.get(purpose);
    if (!k) {
      k = crypto.subtle
        .importKey("raw", this.currentBytes, "HKDF", false, ["deriveKey"])
        .then((base) =>
          crypto.subtle.deriveKey(
            { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(32), info: new TextEncoder().encode(`tessera/${purpose}`) },
            base,
            { name: "HMAC", hash: "SHA-256", length: 256 },
            false,
            ["sign"],
          ),
        );
      this.derived.set(purpose, k);
    }
    return k;
  }
}
