import { ThemeIcon } from '@mantine/core';
import { IconMessageChatbot } from '@tabler/icons-react';

/** The product mark; tinted with the tenant's primary colour. */
export function BrandMark({ size = 36 }: { size?: number }) {
  return (
    <ThemeIcon size={size} radius="md" variant="gradient" gradient={{ from: 'brand.5', to: 'brand.8', deg: 135 }} aria-hidden>
      <IconMessageChatbot size={Math.round(size * 0.6)} stroke={1.7} />
    </ThemeIcon>
  );
}
