import { runChannelConformance, type ConformanceContext, type FakeProvider, type FakeSentMessage } from '@atende/core/testing';
import { signSandbox, SIGNATURE_HEADER } from './index.ts';

/**
 * The sandbox has no external provider: the "fake" is its own outbox (what
 * agents sent) and its signed webhook (what customers send). It has no
 * connection to drop and fails sends only permanently, so the kit reports
 * the temporary-error and reconnect checks as not applicable.
 */
class SandboxFake implements FakeProvider {
  private secret?: string;

  async webhookSecret(ctx: ConformanceContext): Promise<string> {
    if (!this.secret) {
      const r = await ctx.app.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${ctx.channel.id}/secret`, headers: ctx.admin.headers });
      this.secret = r.json().secret as string;
    }
    return this.secret;
  }

  async post(ctx: ConformanceContext, payload: unknown) {
    const raw = JSON.stringify(payload);
    const res = await ctx.app.app.inject({
      method: 'POST',
      url: `/api/plugins/channel-sandbox/webhook/${ctx.channel.id}`,
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signSandbox(await this.webhookSecret(ctx), raw) },
      payload: raw,
    });
    if (res.statusCode !== 200) throw new Error(`sandbox webhook answered ${res.statusCode}: ${res.body}`);
  }

  async sent(ctx: ConformanceContext): Promise<FakeSentMessage[]> {
    const r = await ctx.app.app.inject({ method: 'GET', url: `/api/plugins/channel-sandbox/channels/${ctx.channel.id}/outbox?limit=500`, headers: ctx.admin.headers });
    const rows = r.json() as { providerId: string; to: string; body: string; type: string; mediaName: string | null; buttons: { label: string; value: string }[] | null }[];
    return rows.reverse().map((x) => ({
      to: x.to,
      body: x.body,
      providerId: x.providerId,
      kind: x.buttons ? 'buttons' : x.mediaName ? 'media' : 'text',
      buttons: x.buttons ?? undefined,
      media: x.mediaName ? { kind: x.type === 'image' ? 'image' : x.type === 'audio' ? 'audio' : x.type === 'video' ? 'video' : 'document', name: x.mediaName } : undefined,
    }));
  }

  async rejectSends(ctx: ConformanceContext, body: string) {
    const r = await ctx.app.app.inject({ method: 'PUT', url: `/api/channels/${ctx.channel.id}`, headers: ctx.admin.headers, payload: { config: { failWhenBodyContains: body } } });
    if (r.statusCode !== 200) throw new Error(`could not configure the sandbox: ${r.body}`);
  }

  async close() {}
}

runChannelConformance<SandboxFake>({
  name: 'channel-sandbox',
  plugin: 'channel-sandbox',
  createFakeProvider: async () => new SandboxFake(),
  channelInput: () => ({ type: 'sandbox', name: 'Sandbox conformidade' }),
  deliverInbound: (fake, ctx, msg) =>
    fake.post(ctx, {
      id: msg.id,
      from: { id: msg.from.id, name: msg.from.name },
      body: msg.text ?? '',
      media: msg.media ? { data: msg.media.data.toString('base64'), mimetype: msg.media.mimetype, name: msg.media.name } : undefined,
    }),
  deliverAck: (fake, ctx, providerId, status) => fake.post(ctx, { ack: { id: providerId, status } }),
});
