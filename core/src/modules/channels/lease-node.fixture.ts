/**
 * A worker node in its own process, for the session-lease test: it builds
 * the real app on the given database, registers a long-lived probe channel
 * type and runs sessions until it is killed. It prints its node id once
 * ready, and `connected <channelId>` whenever the kernel hands it a session.
 */
import pino from 'pino';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { channelSessions } from './sessions.ts';

const env = process.env;
const config = {
  ...loadConfig({ ATENDE_LOG_LEVEL: 'silent' }),
  databaseUrl: env.LEASE_DATABASE_URL!,
  redisUrl: env.LEASE_REDIS_URL || undefined,
  namespace: env.LEASE_NAMESPACE!,
  plugins: [],
  channelSessions: { leaseMs: Number(env.LEASE_MS), renewMs: Number(env.LEASE_RENEW_MS) },
};
const app = await buildApp(config, { logger: pino({ level: 'silent' }), migrate: false, workers: false });
app.kernel.channelAdapters.set('probe-session', {
  type: 'probe-session',
  label: 'Probe session',
  identityKind: 'probe',
  longLived: true,
  capabilities: { media: [], buttons: false, lists: false, templates: false, reactions: false, edit: false, delete: false, groups: false, qr: false, pairingCode: false, historyImport: false, readReceipts: false },
  async connect(channel, runtime) {
    process.stdout.write(`connected ${channel.id}\n`);
    await runtime.setStatus(channel.tenantId, channel.id, 'connected');
  },
  async send() {
    throw new Error('not used');
  },
});
await app.ready();
process.stdout.write(`ready ${channelSessions(app.kernel).nodeId}\n`);
setInterval(() => undefined, 1 << 30);
