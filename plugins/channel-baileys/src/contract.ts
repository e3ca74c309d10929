/**
 * What the WhatsApp (Baileys) channel's server part and its remote share:
 * how the phone is linked (the channel dialog's fields) and the rule for the
 * pairing code's number. It has no error codes of its own — its failures are
 * the kernel's WhatsApp codes (ERR_WAPP_*, ERR_QR_CODE, ERR_SYNC_MESSAGES) —
 * and publishes no events: sends that land on another node travel node to
 * node (`ctx.cluster`), not as events.
 */
import { defineContract, z } from '@atende/core/contract';

/** The number a pairing code is asked for: country code, area code and number, digits only. */
export const PAIRING_NUMBER = /^\d{8,20}$/;

export const connectionMethod = z.enum(['qrcode', 'pairingCode']);
export type ConnectionMethod = z.output<typeof connectionMethod>;

/** The channel's provider settings (`config`); the kernel keeps its own keys (switches, proxy) beside them. */
export const baileysConfig = z
  .object({
    /** How the admin links the phone: scanning a QR code or typing a pairing code on the phone. */
    connectionMethod: connectionMethod.optional(),
    /** Ask the phone for the full history when linking (slower first sync; more to import). */
    syncFullHistory: z.boolean().optional(),
  })
  .passthrough();
export type BaileysConfig = z.output<typeof baileysConfig>;

export const contract = defineContract({ id: 'channel-baileys' });
