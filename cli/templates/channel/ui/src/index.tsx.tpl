import { defineUiPlugin } from '@atende/ui-shell/sdk';
import { contract } from '@atende/plugin-__ID__/contract';
import { ProviderForm } from './ProviderForm.tsx';
import { locales } from './locales.ts';

/**
 * The __LABEL__ channel's part of `/sessoes`: its provider fields in the
 * shell's channel dialog. Add `connect: MyPanel` beside `form` to replace the
 * shell's default connect panel (QR code, pairing code, status).
 */
export default defineUiPlugin({
  id: '__ID__',
  contract,
  routes: [],
  channels: [{ type: '__TYPE__', form: ProviderForm }],
  locales,
});
