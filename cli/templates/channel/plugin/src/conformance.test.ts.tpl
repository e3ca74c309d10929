import { fileURLToPath } from 'node:url';
import { runChannelConformance, type FakeSentMessage } from '@atende/core/testing';
import { FakeProvider } from './fake-provider.ts';

/** The kit's view of the local provider: what the adapter sent, and the provider's failure modes. */
class KitFake {
  constructor(readonly api: FakeProvider) {}

  async sent(): Promise<FakeSentMessage[]> {
    return this.api.sent.map((s) => ({
      to: s.to,
      kind: s.buttons?.length ? 'buttons' : s.media ? 'media' : 'text',
      body: s.text,
      buttons: s.buttons,
      media: s.media ? { kind: s.media.mimetype.startsWith('image/') ? 'image' : 'document', name: s.media.name, mimetype: s.media.mimetype, size: s.media.size } : undefined,
      providerId: s.id,
    }));
  }

  async rejectSends(_ctx: unknown, body: string) {
    this.api.reject(body);
  }

  async failOnce(_ctx: unknown, body: string) {
    this.api.failOnce(body);
  }

  close() {
    return this.api.close();
  }
}

runChannelConformance<KitFake>({
  name: '__ID__',
  plugin: '__ID__',
  // The install this plugin lives in (plugins/__ID__/src → three levels up).
  rootDir: fileURLToPath(new URL('../../..', import.meta.url)),
  createFakeProvider: async () => new KitFake(await FakeProvider.start()),
  channelInput: (fake, env) => ({
    type: '__TYPE__',
    name: '__LABEL__ conformidade',
    secrets: { token: fake.api.token },
    config: { apiBase: fake.api.url, webhookBaseUrl: env.baseUrl },
  }),
  deliverInbound: (fake, _ctx, msg) => fake.api.customerMessage(msg.id, msg.from, msg.text, msg.media),
  deliverAck: (fake, _ctx, providerId, status) => fake.api.receipt(providerId, status),
});
