/**
 * Kernel pieces the CLI needs that `@atende/core` does not export (yet). They
 * are reached by path in this one module so that, once the kernel exports
 * them, only these lines change.
 */
export { PluginEnablement } from '../../core/src/plugins/enablement.ts';
export { hashPassword, isStrongPassword } from '../../core/src/modules/identity/passwords.ts';
export { PLATFORM_TENANT_ID, ensurePlatformTenant } from '../../core/src/modules/identity/bootstrap.ts';
