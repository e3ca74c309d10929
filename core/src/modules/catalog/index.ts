import type { KernelModule } from '../index.ts';
import { catalogRoutes } from './routes.ts';

/**
 * Tags, queues and quick messages. Their tables and entities belong to the
 * conversation core's schema (modules/conversations); this module owns the
 * rules and routes around them.
 */
export const catalogModule: KernelModule = { name: 'catalog', entities: [], migrations: [], routes: catalogRoutes };

export { resolveQuickMessageForTenant, quickMessageMedia, quickMessageOut } from './quick-messages.ts';
export { resolveQuickMessage, pickQuickMessage, slashKey } from './quick-message-resolver.ts';
export { queueOut, tagOut } from './queues-tags.ts';
export { acceptUpload, removeStoredMedia, MEDIA_MAX_BYTES, MEDIA_TYPES, type AcceptedMedia } from './media.ts';
