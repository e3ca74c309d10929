import type { KernelModule } from '../index.ts';
import { metricsRoutes } from './routes.ts';

/** Prometheus metrics of this node (`GET /api/metrics`). Listed first so its response hook sees every route. */
export const metricsModule: KernelModule = { name: 'metrics', entities: [], migrations: [], routes: metricsRoutes };

export { kernelMetrics, countOutbound } from './registry.ts';
