// Build settings (federation, shared singletons, base `/plugins/protocols/`) come from the shell.
import { remoteViteConfig } from '../../ui-shell/mf-shared.ts';
export default remoteViteConfig('protocols');
