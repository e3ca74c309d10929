// Build settings (federation, shared singletons, base `/plugins/channel-baileys/`) come from the shell.
import { remoteViteConfig } from '../../ui-shell/mf-shared.ts';
export default remoteViteConfig('channel-baileys');
