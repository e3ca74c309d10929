/**
 * The tenant filter every tenant-owned entity carries. It is on by default and
 * requires its argument, so a query on a tenant table without a tenant (a bug)
 * fails loudly instead of reading every tenant's rows. Cross-tenant reads by the
 * superadmin switch it off explicitly with `filters: { tenant: false }`.
 */
export const tenantFilter = {
  tenant: {
    name: 'tenant',
    cond: (args: { tenantId: number }) => ({ tenantId: args.tenantId }),
    default: true,
  },
};
