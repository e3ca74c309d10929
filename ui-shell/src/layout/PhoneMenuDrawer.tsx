import { Drawer } from '@mantine/core';
import { BrandMark } from './BrandMark.tsx';
import { NavRail } from './NavRail.tsx';

/** The full menu of a phone-width window, opened by the top bar's burger (fetched when first opened). */
export default function PhoneMenuDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Drawer opened={opened} onClose={onClose} size={280} padding={0} title={<BrandMark size={28} />}>
      <NavRail collapsed={false} onNavigate={onClose} />
    </Drawer>
  );
}
