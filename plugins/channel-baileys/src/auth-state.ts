import type { AuthenticationCreds, AuthenticationState, SignalDataSet, SignalDataTypeMap } from '@whiskeysockets/baileys';
import type { ChannelAuthState } from '@atende/core/sdk';
import { fromStoredJson, toStoredJson, type BaileysLib } from './lib.ts';

export const CREDS_KEY = 'creds';
const keyName = (type: string, id: string) => `${type}:${id}`;

export interface PgAuthState {
  state: AuthenticationState;
  /** Writes the whole creds object (Baileys mutates it in place and emits only the changed part). */
  saveCreds(): Promise<void>;
  /** Resolves once every creds write so far has reached PostgreSQL. */
  flush(): Promise<void>;
  /** Whether this device has been linked to a phone (a QR code was scanned or a pairing code entered). */
  registered(): boolean;
}

/**
 * Baileys' auth state (creds and signal keys) kept in the kernel's
 * PostgreSQL auth-state store instead of `useMultiFileAuthState`'s folder,
 * so a session can resume on whichever node takes over its lease. The
 * kernel refuses writes from a node that no longer holds the lease, so a
 * stale node cannot overwrite the new owner's keys.
 */
export async function usePgAuthState(lib: BaileysLib, store: ChannelAuthState): Promise<PgAuthState> {
  const saved = await store.get(CREDS_KEY);
  const creds: AuthenticationCreds = saved ? fromStoredJson<AuthenticationCreds>(lib, saved) : lib.initAuthCreds();
  // Writes of creds are serialised: two quick `creds.update` events must land in order.
  let credsWrite: Promise<void> = Promise.resolve();

  const state: AuthenticationState = {
    creds,
    keys: {
      async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
        const out: { [id: string]: SignalDataTypeMap[T] } = {};
        await Promise.all(
          ids.map(async (id) => {
            const raw = await store.get(keyName(type, id));
            if (raw === undefined || raw === null) return;
            let value = fromStoredJson<SignalDataTypeMap[T]>(lib, raw);
            if (type === 'app-state-sync-key') value = lib.proto.Message.AppStateSyncKeyData.fromObject(value as object) as unknown as SignalDataTypeMap[T];
            out[id] = value;
          }),
        );
        return out;
      },
      async set(data: SignalDataSet) {
        const writes: Promise<void>[] = [];
        for (const [type, entries] of Object.entries(data)) {
          for (const [id, value] of Object.entries(entries ?? {})) {
            writes.push(value ? store.set(keyName(type, id), toStoredJson(lib, value)) : store.delete(keyName(type, id)));
          }
        }
        await Promise.all(writes);
      },
      async clear() {
        const keys = await store.keys();
        await Promise.all(keys.filter((k) => k !== CREDS_KEY).map((k) => store.delete(k)));
      },
    },
  };

  return {
    state,
    saveCreds() {
      credsWrite = credsWrite.catch(() => undefined).then(() => store.set(CREDS_KEY, toStoredJson(lib, creds)));
      return credsWrite;
    },
    flush: () => credsWrite.catch(() => undefined),
    // `creds.registered` stays false after a QR link; a linked device has its signed account identity.
    registered: () => !!creds.me?.id && !!creds.account,
  };
}
