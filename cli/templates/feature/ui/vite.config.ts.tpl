// Build settings (federation, shared singletons, base `/plugins/__ID__/`) come from the shell.
import { remoteViteConfig } from '../../ui-shell/mf-shared.ts';
export default remoteViteConfig('__ID__');
