// Build settings (federation, shared singletons, base `/plugins/notes/`) come from the shell.
import { remoteViteConfig } from '../../ui-shell/mf-shared.ts';
export default remoteViteConfig('notes');
