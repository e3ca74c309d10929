import { runChannelConformance, type FakeProvider, type FakeSentMessage } from '@atende/core/testing';
import { FakeWhatsApp, Status } from './fake-whatsapp.ts';
import { baileysOptions } from './index.ts';

/** The kit's view of the fake WhatsApp: what the linked device sent, and WhatsApp's failure modes. */
class BaileysFake implements FakeProvider {
  constructor(readonly wa: FakeWhatsApp) {}

  async sent(): Promise<FakeSentMessage[]> {
    return this.wa.sent
      .filter((s) => s.body !== undefined || s.media)
      .map((s) => ({
        to: s.jid.split('@')[0],
        kind: s.media ? 'media' : 'text',
        body: s.body,
        media: s.media ? { kind: s.media.kind, name: s.media.name, mimetype: s.media.mimetype, size: s.media.size } : undefined,
        providerId: s.message.key.id ?? undefined,
      }));
  }

  async rejectSends(_ctx: unknown, body: string) {
    this.wa.reject(body);
  }

  async failOnce(_ctx: unknown, body: string) {
    this.wa.failNext(body);
  }

  async drop() {
    this.wa.drop();
  }

  async restore() {
    this.wa.restore();
  }

  close() {
    return this.wa.close();
  }
}

runChannelConformance<BaileysFake>({
  name: 'channel-baileys',
  plugin: 'channel-baileys',
  createFakeProvider: async () => {
    const wa = await FakeWhatsApp.start();
    // The phone scans the first QR code the channel shows, as an admin would.
    wa.autoScan = true;
    Object.assign(baileysOptions, { makeSocket: wa.makeWASocket, reconnectBaseMs: 100, reconnectMaxMs: 1000 });
    return new BaileysFake(wa);
  },
  channelInput: () => ({ type: 'baileys', name: 'WhatsApp conformidade', config: { connectionMethod: 'qrcode' } }),
  deliverInbound: async (fake, _ctx, msg) => {
    await fake.wa.incoming({ id: msg.id, from: msg.from.id, pushName: msg.from.name, text: msg.text, media: msg.media ? { ...msg.media, caption: msg.text } : undefined });
  },
  deliverAck: async (fake, _ctx, providerId, status) => {
    fake.wa.ack(providerId, status === 'read' ? Status.READ : status === 'delivered' ? Status.DELIVERY_ACK : Status.SERVER_ACK);
  },
});
