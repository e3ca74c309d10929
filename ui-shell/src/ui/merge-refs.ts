/**
 * What Mantine's ScrollArea imports from `@floating-ui/react` (`useMergeRefs`),
 * served from Mantine's own hooks instead (vite.config.ts `scrollAreaRefs`):
 * floating-ui's React binding is one module, so that single import kept all of
 * it (with floating-ui's core and DOM code, ~14 KB gzip) on every first load
 * that draws a scroll area, which the rail and the ticket list do (U1).
 * Tooltips, menus and popovers still use the real floating-ui.
 */
import { useMergedRef } from '@mantine/hooks';
import type { Ref } from 'react';

/** floating-ui's signature (an array of refs), Mantine's merge. */
export function useMergeRefs<T>(refs: Array<Ref<T> | undefined>) {
  return useMergedRef<T>(...refs);
}
