import { runChannelConformance, type FakeProvider, type FakeSentMessage } from '@atende/core/testing';
import { FakeBotApi } from './fake-bot-api.ts';

/** The kit's view of the local Bot API: what the bot sent, and the provider's failure modes. */
class TelegramFake implements FakeProvider {
  constructor(readonly api: FakeBotApi) {}

  async sent(): Promise<FakeSentMessage[]> {
    return this.api.sent.map((s) => ({
      to: s.chatId,
      kind: s.buttons?.length ? 'buttons' : s.file ? 'media' : 'text',
      body: s.text ?? s.caption,
      buttons: s.buttons,
      media: s.file ? { kind: s.file.field === 'photo' ? 'image' : s.file.field === 'voice' ? 'audio' : (s.file.field as 'document' | 'video' | 'audio'), name: s.file.name, mimetype: s.file.mimetype, size: s.file.size } : undefined,
      providerId: `${s.chatId}:${s.messageId}`,
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

for (const mode of ['polling', 'webhook'] as const) {
  runChannelConformance<TelegramFake>({
    name: `channel-telegram (${mode})`,
    plugin: 'channel-telegram',
    createFakeProvider: async () => new TelegramFake(await FakeBotApi.start()),
    channelInput: (fake, env) => ({
      type: 'telegram',
      name: `Telegram ${mode}`,
      secrets: { token: fake.api.token },
      config: { mode, apiRoot: fake.api.url, pollTimeoutSec: 1, healthIntervalMs: 300, ...(mode === 'webhook' ? { webhookBaseUrl: env.baseUrl } : {}) },
    }),
    deliverInbound: (fake, _ctx, msg) => fake.api.customerMessage(msg.id, msg.from, { text: msg.text, media: msg.media }),
  });
}
