/**
 * `@atende/core/sdk` — the only module a server plugin imports from the kernel.
 *
 * A plugin default-exports `definePlugin({...})`; the kernel mounts it, runs its
 * migrations in dependency order, and hands `register(ctx)` typed services.
 */
import type { PluginDefinition } from './types.ts';

export type * from './types.ts';
export * from './channel.ts';
export * from './contract.ts';
export { principalOf, escapeLike, sql, type PluginHttp, type SqlQuery } from './http.ts';
export { AppError, ERRORS, type ErrorCode } from '../errors.ts';
export { defineEntity } from '@mikro-orm/core';
export { tenantFilter } from '../db/tenant-filter.ts';
export { OutboundBlockedError, hostMatches, type OutboundOptions, type OutboundPort } from '../net/outbound.ts';

/** Declares a plugin. Returns the definition unchanged; exists for type inference and validation. */
export function definePlugin(def: PluginDefinition): PluginDefinition {
  if (!/^[a-z][a-z0-9-]*$/.test(def.id)) throw new Error(`plugin id "${def.id}" must be kebab-case`);
  for (const m of def.migrations ?? []) {
    if (!/^\d{4}_[a-z0-9_]+$/.test(m.name)) throw new Error(`plugin ${def.id}: migration name "${m.name}" must look like 0001_init`);
  }
  return def;
}

export type { UserEventData, MessageEventData } from '../events/kernel-events.ts';
