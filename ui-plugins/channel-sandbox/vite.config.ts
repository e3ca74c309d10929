// Build settings (federation, shared singletons, base `/plugins/channel-sandbox/`) come from the shell.
import { remoteViteConfig } from '../../ui-shell/mf-shared.ts';
export default remoteViteConfig('channel-sandbox');
