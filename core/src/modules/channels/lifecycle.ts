import type { Kernel } from '../../kernel.ts';
import type { ChannelRecord } from '../../sdk/channel.ts';
import { channelRuntime, setChannelStatus } from '../conversations/channels.ts';
import { authState, channelSessions } from './sessions.ts';

/**
 * Brings a channel up. A long-lived channel is handed to the session
 * manager, which runs it on exactly one worker node; a webhook channel's
 * adapter checks its credentials right here. A failure leaves the channel
 * `disconnected` with the provider's reason, which the admin sees live.
 */
export async function connectChannel(kernel: Kernel, channel: ChannelRecord): Promise<void> {
  const adapter = kernel.channelAdapters.get(channel.type);
  if (!adapter) {
    await setChannelStatus(kernel, channel.tenantId, channel.id, 'disconnected', { error: `tipo de canal ${channel.type} não instalado` });
    return;
  }
  if (adapter.longLived) {
    await channelSessions(kernel).want(channel.tenantId, channel.id);
    return;
  }
  if (!adapter.connect) {
    // Nothing to open or check: the channel works as soon as it exists.
    await setChannelStatus(kernel, channel.tenantId, channel.id, 'connected');
    return;
  }
  try {
    await setChannelStatus(kernel, channel.tenantId, channel.id, 'opening');
    await adapter.connect(channel, channelRuntime(kernel));
  } catch (err) {
    kernel.logger.warn({ channelId: channel.id, err: (err as Error).message }, 'channel connect failed');
    await setChannelStatus(kernel, channel.tenantId, channel.id, 'disconnected', { error: (err as Error).message.slice(0, 500) });
  }
}

/**
 * Takes a channel down. `logout` (channel deleted) also ends the account's
 * session at the provider and forgets its auth state, so a deleted channel
 * leaves no keys behind.
 */
export async function disconnectChannel(kernel: Kernel, channel: ChannelRecord, opts: { logout?: boolean } = {}): Promise<void> {
  const adapter = kernel.channelAdapters.get(channel.type);
  if (adapter?.longLived) await channelSessions(kernel).unwant(channel.tenantId, channel.id);
  else await adapter?.disconnect?.(channel).catch((err) => kernel.logger.warn({ channelId: channel.id, err: (err as Error).message }, 'channel disconnect failed'));
  if (opts.logout) {
    await adapter?.logout?.(channel).catch((err) => kernel.logger.warn({ channelId: channel.id, err: (err as Error).message }, 'channel logout failed'));
    await authState(kernel, channelSessions(kernel), channel.id).clear();
  }
  await setChannelStatus(kernel, channel.tenantId, channel.id, 'disconnected', { qrcode: null, error: null });
}
