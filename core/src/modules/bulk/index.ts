import type { KernelModule } from '../index.ts';
import { bulkMigrations } from './migrations.ts';
import { defineBulkJobs, SWEEP_EVERY_MS } from './pump.ts';
import { SWEEP_JOB } from './service.ts';

/** The kernel's paced bulk send (see BulkSendPort in the SDK); plugins reach it as `ctx.bulkSend`. */
export const bulkModule: KernelModule = {
  name: 'bulk',
  entities: [],
  migrations: bulkMigrations,
  routes: async (app, kernel) => {
    defineBulkJobs(app, kernel);
    if (kernel.config.role !== 'api') await kernel.jobs.schedule(SWEEP_JOB, 'bulk-sweep', { everyMs: SWEEP_EVERY_MS }, {});
  },
};

export { bulkSendFor } from './service.ts';
