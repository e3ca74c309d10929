import { ActionIcon, Avatar, Badge, Box, Group, Menu, Paper, Text, Tooltip } from '@mantine/core';
import { IconDots, IconMessageCircle, IconUserCheck } from '@tabler/icons-react';
import type { CSSProperties } from 'react';
import { usePluginTranslation } from '@atende/ui-shell/sdk';
import type { Card } from './api.ts';

/** Every card has this height so a column can render only the cards in view (see Column). */
export const CARD_HEIGHT = 112;
export const CARD_GAP = 8;

const AVATAR_COLORS = ['blue', 'violet', 'teal', 'orange', 'pink', 'cyan', 'grape', 'indigo', 'lime', 'red'];
const colorFor = (id: number) => AVATAR_COLORS[id % AVATAR_COLORS.length]!;
export const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

interface Props {
  card: Card;
  /** Admins get the "assign owner" action (the server refuses it to everyone else anyway). */
  canAssign?: boolean;
  onAssign?: (card: Card) => void;
  onOpenTicket?: (ticketId: number) => void;
  dragging?: boolean;
  overlay?: boolean;
  style?: CSSProperties;
}

/** One contact on the board: who, its tags, its open ticket and agent, its owner. */
export function CardView({ card, canAssign, onAssign, onOpenTicket, dragging, overlay, style }: Props) {
  const { t } = usePluginTranslation('kanban');
  const ticket = card.ticket;
  const shownTags = card.tags.slice(0, 3);
  return (
    <Paper
      withBorder
      radius="md"
      p={10}
      shadow={overlay ? 'xl' : 'xs'}
      aria-label={card.name}
      data-card-id={card.id}
      style={{
        height: CARD_HEIGHT,
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        cursor: overlay ? 'grabbing' : 'grab',
        opacity: dragging ? 0.35 : 1,
        transform: overlay ? 'rotate(2.5deg)' : undefined,
        background: 'var(--mantine-color-body)',
        userSelect: 'none',
        ...style,
      }}
    >
      <Group gap={8} wrap="nowrap" align="flex-start">
        <Avatar src={card.profilePicUrl} radius="xl" size={30} color={colorFor(card.id)}>
          {initials(card.name)}
        </Avatar>
        <Box style={{ minWidth: 0, flex: 1 }}>
          <Text size="sm" fw={600} lh={1.25} truncate="end">
            {card.name}
          </Text>
          <Text size="xs" c="dimmed" truncate="end">
            {card.number ?? t('noNumber')}
          </Text>
        </Box>
        {canAssign && (
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('cardActions', { name: card.name })} onPointerDown={(e) => e.stopPropagation()}>
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconUserCheck size={16} />} onClick={() => onAssign?.(card)}>
                {t('assignOwner')}
              </Menu.Item>
              {ticket && (
                <Menu.Item leftSection={<IconMessageCircle size={16} />} onClick={() => onOpenTicket?.(ticket.id)}>
                  {t('openTicket')}
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      <Group gap={4} wrap="nowrap" style={{ overflow: 'hidden', minHeight: 20 }}>
        {shownTags.map((tag) => (
          <Badge key={tag.id} size="xs" variant="light" radius="sm" color={tag.color} leftSection={<Box w={6} h={6} style={{ borderRadius: 6, background: tag.color }} />} style={{ textTransform: 'none', flexShrink: 1, minWidth: 0 }}>
            {tag.name}
          </Badge>
        ))}
        {card.tags.length > shownTags.length && (
          <Text size="xs" c="dimmed">
            +{card.tags.length - shownTags.length}
          </Text>
        )}
      </Group>
      <Group gap={6} justify="space-between" wrap="nowrap">
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
          {ticket ? (
            <>
              <Badge
                size="xs"
                radius="sm"
                variant="dot"
                color={ticket.status === 'open' ? 'teal' : 'yellow'}
                style={{ textTransform: 'none', cursor: onOpenTicket ? 'pointer' : undefined }}
                onClick={() => onOpenTicket?.(ticket.id)}
                onPointerDown={(e) => e.stopPropagation()}
              >
                {ticket.status === 'open' ? t('statusOpen') : t('statusPending')}
              </Badge>
              <Text size="xs" c="dimmed" truncate="end">
                {ticket.userName ?? t('unassigned')}
              </Text>
              {ticket.unreadMessages > 0 && (
                <Badge size="xs" circle color="green" aria-label={t('unread', { count: ticket.unreadMessages })}>
                  {ticket.unreadMessages}
                </Badge>
              )}
            </>
          ) : (
            <Text size="xs" c="dimmed">
              {t('noTicket')}
            </Text>
          )}
        </Group>
        {card.owners.length > 0 ? (
          <Tooltip label={t('ownerIs', { name: card.owners.map((o) => o.name).join(', ') })} withinPortal>
            <Avatar.Group spacing={6}>
              {card.owners.slice(0, 2).map((o) => (
                <Avatar key={o.id} size={20} radius="xl" color={colorFor(o.id)} aria-label={t('ownerIs', { name: o.name })}>
                  <Text fz={9} fw={700}>{initials(o.name)}</Text>
                </Avatar>
              ))}
            </Avatar.Group>
          </Tooltip>
        ) : null}
      </Group>
    </Paper>
  );
}
