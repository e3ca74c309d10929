import type {
  AnyMessageContent,
  BaileysEventEmitter,
  Contact,
  GroupMetadata,
  MiscMessageGenerationOptions,
  UserFacingSocketConfig,
  WAMessage,
  WAMessageKey,
} from '@whiskeysockets/baileys';

/**
 * The part of Baileys' socket (`ReturnType<typeof makeWASocket>`) this
 * plugin uses. The real socket satisfies it as is; tests hand the plugin a
 * fake with the same shapes at this boundary, so everything above it (auth
 * state, events, parsing, media download, reconnects) runs for real.
 */
export interface WhatsAppSocket {
  ev: BaileysEventEmitter;
  user: Contact | undefined;
  signalRepository: {
    lidMapping: {
      getPNForLID(lid: string): Promise<string | null>;
      getLIDForPN(pn: string): Promise<string | null>;
    };
  };
  sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions): Promise<WAMessage | undefined>;
  requestPairingCode(phoneNumber: string, customPairingCode?: string): Promise<string>;
  onWhatsApp(...phoneNumber: string[]): Promise<{ jid: string; exists: boolean }[] | undefined>;
  groupMetadata(jid: string): Promise<GroupMetadata>;
  fetchMessageHistory(count: number, oldestMsgKey: WAMessageKey, oldestMsgTimestamp: number): Promise<string>;
  updateMediaMessage(message: WAMessage): Promise<WAMessage>;
  logout(msg?: string): Promise<void>;
  end(error: Error | undefined): Promise<void>;
}

/** Builds a socket: Baileys' `makeWASocket` in production. */
export type SocketFactory = (config: UserFacingSocketConfig) => WhatsAppSocket;
