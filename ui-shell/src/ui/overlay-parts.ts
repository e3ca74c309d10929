/**
 * Mantine's floating components, fetched on demand by `./overlays.tsx`: they
 * and their positioning engine (floating-ui) are ~25 KB gzip that no screen
 * needs before the user points at or clicks something.
 */
export { Menu, Popover, Tooltip } from '@mantine/core';
