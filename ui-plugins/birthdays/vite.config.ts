import { remoteViteConfig } from '../../ui-shell/mf-shared.ts';

export default remoteViteConfig('birthdays');
