// Build settings (federation, shared singletons, base `/plugins/private-chat/`) come from the shell.
import { remoteViteConfig } from '../../ui-shell/mf-shared.ts';
export default remoteViteConfig('private-chat');
