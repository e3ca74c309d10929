import { ActionIcon, Box, Button, Group, Paper, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { IconArrowRight, IconCheck, IconRefresh, IconShieldCheck, IconShieldX } from '@tabler/icons-react';
import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** Answer of `GET /api/auth/captcha`. */
export interface CaptchaChallenge {
  enabled: boolean;
  token?: string;
  width: number;
  height: number;
  /** Data URL of the picture with the hole. */
  background?: string;
  /** Data URL of the piece to slide into the hole. */
  piece?: string;
  pieceY?: number;
}

export interface SliderCaptchaProps {
  challenge: CaptchaChallenge | undefined;
  loading: boolean;
  failed: boolean;
  onReload: () => void;
  /** The piece's x (in picture pixels) once the user released it; null while not done. */
  onChange: (x: number | null) => void;
}

const TRACK_H = 44;

/**
 * Slider captcha (core.md §2): the user drags the piece horizontally into
 * the hole of the picture; the server checks the position at login.
 * Works with a mouse, a finger, or the arrow keys on the handle.
 */
export function SliderCaptcha({ challenge, loading, failed, onReload, onChange }: SliderCaptchaProps) {
  const { t } = useTranslation();
  const { ref: frameRef, width: frameWidth } = useElementSize();
  const [x, setX] = useState(0);
  const [done, setDone] = useState(false);
  const [pieceWidth, setPieceWidth] = useState(56);
  const drag = useRef<{ startClient: number; startX: number } | null>(null);
  const [lastToken, setLastToken] = useState<string | undefined>(undefined);

  // A new challenge starts over.
  if (challenge?.token !== lastToken) {
    setLastToken(challenge?.token);
    setX(0);
    setDone(false);
  }

  if (failed) {
    return (
      <Paper withBorder radius="md" p="md" role="alert">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconShieldX size={22} stroke={1.6} color="var(--mantine-color-orange-6)" style={{ flexShrink: 0, marginTop: 2 }} />
          <Stack gap={6}>
            <Text size="sm" fw={600}>{t('login.captchaTitle')}</Text>
            <Text size="sm" c="dimmed">{t('login.captchaLoadError')}</Text>
            <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={onReload} w="fit-content">{t('common.retry')}</Button>
          </Stack>
        </Group>
      </Paper>
    );
  }
  if (loading || !challenge) return <Skeleton height={160 + TRACK_H + 12} radius="md" />;
  if (!challenge.enabled) return null;

  const { width, height } = challenge;
  const scale = frameWidth > 0 ? frameWidth / width : 1;
  const maxX = Math.max(0, width - pieceWidth);
  const clamp = (v: number) => Math.min(maxX, Math.max(0, v));

  const move = (next: number) => {
    setX(next);
    if (done) {
      setDone(false);
      onChange(null);
    }
  };
  const finish = (final: number) => {
    const ok = final > 0;
    setDone(ok);
    onChange(ok ? Math.round(final) : null);
  };
  const onPointerDown = (e: PointerEvent<HTMLElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { startClient: e.clientX, startX: x };
  };
  const onPointerMove = (e: PointerEvent<HTMLElement>) => {
    if (!drag.current) return;
    move(clamp(drag.current.startX + (e.clientX - drag.current.startClient) / scale));
  };
  const onPointerUp = () => {
    if (!drag.current) return;
    drag.current = null;
    finish(x);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const step = e.shiftKey ? 10 : 2;
    if (e.key === 'ArrowRight') move(clamp(x + step));
    else if (e.key === 'ArrowLeft') move(clamp(x - step));
    else return;
    e.preventDefault();
  };
  const handlers = { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp };
  const handleLeft = maxX > 0 ? (x / maxX) * (Math.max(frameWidth, 1) - TRACK_H) : 0;

  return (
    <Stack gap={8}>
      <Group justify="space-between" gap="xs" maw={width}>
        <Group gap={6}>
          {done ? <IconShieldCheck size={18} color="var(--mantine-color-teal-6)" /> : <IconShieldCheck size={18} color="var(--mantine-color-dimmed)" />}
          <Text size="sm" fw={500}>{done ? t('login.captchaDone') : t('login.captchaTitle')}</Text>
        </Group>
        <Tooltip label={t('login.captchaRetry')}>
          <ActionIcon variant="subtle" color="gray" onClick={onReload} aria-label={t('login.captchaRetry')}><IconRefresh size={16} /></ActionIcon>
        </Tooltip>
      </Group>
      <Box
        ref={frameRef}
        pos="relative"
        w="100%"
        maw={width}
        style={{ aspectRatio: `${width} / ${height}`, borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden', border: '1px solid var(--mantine-color-default-border)', touchAction: 'none', userSelect: 'none' }}
      >
        {challenge.background && <img src={challenge.background} alt="" draggable={false} style={{ width: '100%', height: '100%', display: 'block' }} />}
        {challenge.piece && (
          <img
            src={challenge.piece}
            alt=""
            draggable={false}
            onLoad={(e) => setPieceWidth(e.currentTarget.naturalWidth || 56)}
            {...handlers}
            style={{
              position: 'absolute',
              top: (challenge.pieceY ?? 0) * scale,
              left: x * scale,
              width: pieceWidth * scale,
              cursor: 'grab',
              filter: 'drop-shadow(0 2px 6px rgba(0,0,0,0.45))',
            }}
          />
        )}
      </Box>
      <Box
        pos="relative"
        h={TRACK_H}
        maw={width}
        style={{ borderRadius: 'var(--mantine-radius-md)', background: 'var(--mantine-color-default-hover)', border: '1px solid var(--mantine-color-default-border)', touchAction: 'none', userSelect: 'none' }}
      >
        <Box pos="absolute" top={0} left={0} bottom={0} w={handleLeft + TRACK_H / 2} style={{ borderRadius: 'var(--mantine-radius-md)', background: done ? 'var(--mantine-color-teal-light)' : 'var(--mantine-color-brand-light)' }} />
        {x === 0 && (
          <Text size="sm" c="dimmed" pos="absolute" inset={0} ta="center" lh={`${TRACK_H - 2}px`} style={{ pointerEvents: 'none' }}>
            {t('login.captchaHint')}
          </Text>
        )}
        <Box
          role="slider"
          tabIndex={0}
          aria-label={t('login.captchaHint')}
          aria-valuemin={0}
          aria-valuemax={maxX}
          aria-valuenow={Math.round(x)}
          onKeyDown={onKeyDown}
          onKeyUp={(e) => (e.key === 'ArrowRight' || e.key === 'ArrowLeft') && finish(x)}
          {...handlers}
          pos="absolute"
          top={-1}
          left={handleLeft}
          w={TRACK_H}
          h={TRACK_H}
          style={{
            display: 'grid',
            placeItems: 'center',
            borderRadius: 'var(--mantine-radius-md)',
            cursor: 'grab',
            color: 'white',
            background: done ? 'var(--mantine-color-teal-6)' : 'var(--mantine-primary-color-filled)',
            boxShadow: 'var(--mantine-shadow-sm)',
          }}
        >
          {done ? <IconCheck size={20} /> : <IconArrowRight size={20} />}
        </Box>
      </Box>
    </Stack>
  );
}
