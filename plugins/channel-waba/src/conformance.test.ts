import { runChannelConformance, type ConformanceContext, type FakeProvider, type FakeSentMessage } from '@atende/core/testing';
import { FakeGraphApi } from './fake-graph-api.ts';

/** The kit's view of the local Graph API: what the business number sent, and Graph's failure modes. */
class WabaFake implements FakeProvider {
  constructor(readonly api: FakeGraphApi) {}

  async sent(): Promise<FakeSentMessage[]> {
    return this.api.sent
      .filter((s) => s.type !== 'reaction')
      .map((s) => ({
        to: s.to,
        kind: s.buttons?.length ? 'buttons' : s.media ? 'media' : 'text',
        body: s.text ?? s.caption,
        buttons: s.buttons,
        media: s.media ? { kind: s.media.type as 'image', name: s.media.name, mimetype: s.media.mimetype, size: s.media.size } : undefined,
        providerId: s.providerId,
      }));
  }

  async rejectSends(_ctx: unknown, body: string) {
    this.api.reject(body);
  }

  async failOnce(_ctx: unknown, body: string) {
    this.api.failOnce(body);
  }

  async drop() {
    this.api.drop();
  }

  async restore() {
    this.api.restore();
  }

  close() {
    return this.api.close();
  }
}

const callback = (ctx: ConformanceContext) => `${ctx.baseUrl}/api/plugins/channel-waba/webhook/${ctx.channel.id}`;

runChannelConformance<WabaFake>({
  name: 'channel-waba',
  plugin: 'channel-waba',
  createFakeProvider: async () => new WabaFake(await FakeGraphApi.start()),
  channelInput: (fake) => ({
    type: 'waba',
    name: 'WhatsApp oficial',
    secrets: { accessToken: fake.api.token, appSecret: fake.api.appSecret },
    config: { phoneNumberId: fake.api.phoneNumberId, businessAccountId: fake.api.businessAccountId, apiVersion: 'v21.0', graphBaseUrl: fake.api.url, healthIntervalMs: 300 },
  }),
  deliverInbound: async (fake, ctx, msg) => {
    const body = fake.api.inboundMessage({ id: msg.id, from: msg.from.id, name: msg.from.name, text: msg.text, media: msg.media });
    const res = await fake.api.deliver(callback(ctx), body);
    if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.body}`);
  },
  deliverAck: async (fake, ctx, providerId, status) => {
    const res = await fake.api.deliver(callback(ctx), fake.api.statusUpdate(providerId, status));
    if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.body}`);
  },
});
