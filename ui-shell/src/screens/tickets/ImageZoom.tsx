import { Image, Modal } from '@mantine/core';

/** The media lightbox of the conversation (fetched the first time an image is opened). */
export default function ImageZoom({ src, opened, title, onClose }: { src: string | null; opened: boolean; title: string; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} size="auto" centered withCloseButton padding={4} title={title}>
      {src && <Image src={src} alt="" mah="80vh" fit="contain" />}
    </Modal>
  );
}
