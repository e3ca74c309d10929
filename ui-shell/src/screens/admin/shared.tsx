/**
 * Pieces shared by the shell's admin screens: the catalogue lists every form
 * picks from (queues, tags, users), small badges, and authenticated downloads.
 */
import { Badge, ColorSwatch, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { API_BASE, ApiError, api, ensureFreshToken, getAccessToken } from '@atende/ui-shell/sdk';
import i18next from 'i18next';

export interface Queue { id: number; name: string; color: string; greetingMessage: string | null; slaFirstResponseMinutes?: number | null; slaResolutionMinutes?: number | null; createdAt: string; updatedAt: string }
export interface Tag { id: number; name: string; color: string; active: boolean; createdAt: string; updatedAt: string }
export interface UserLite { id: number; name: string; profile: string; queues: number[]; isOnline: boolean }

export const queuesKey = ['admin', 'queues'] as const;
export const tagsKey = ['admin', 'tags'] as const;
export const usersLiteKey = ['admin', 'users-lite'] as const;

export function useQueues() {
  return useQuery({ queryKey: queuesKey, queryFn: ({ signal }) => api.get<Queue[]>('/queues', { signal, background: true }), staleTime: 30_000 });
}

export function useTags() {
  return useQuery({ queryKey: tagsKey, queryFn: ({ signal }) => api.get<Tag[]>('/tags', { signal, background: true }), staleTime: 30_000 });
}

/** Every user of the tenant (the list pages by 40: follow the pages). */
export function useUsersLite() {
  return useQuery({
    queryKey: usersLiteKey,
    staleTime: 30_000,
    queryFn: async ({ signal }) => {
      const out: UserLite[] = [];
      for (let page = 1; page <= 25; page++) {
        const r = await api.get<{ users: UserLite[]; hasMore: boolean }>('/users', { signal, background: true, query: { pageNumber: page } });
        out.push(...r.users);
        if (!r.hasMore) break;
      }
      return out;
    },
  });
}

/** A coloured dot and a name (queues, tags). */
export function ColorName({ color, name, dimmed }: { color: string | null | undefined; name: string; dimmed?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <ColorSwatch color={color || 'var(--mantine-color-gray-5)'} size={12} withShadow={false} />
      <Text size="sm" fw={500} c={dimmed ? 'dimmed' : undefined} truncate>{name}</Text>
    </Group>
  );
}

export function TagBadge({ tag }: { tag: { name: string; color: string } }) {
  return (
    <Badge size="sm" radius="sm" variant="light" color={tag.color} styles={{ root: { textTransform: 'none' } }}>
      {tag.name}
    </Badge>
  );
}

/** Preset colours offered by the colour pickers. */
export const SWATCHES = ['#2563eb', '#0891b2', '#059669', '#65a30d', '#ca8a04', '#ea580c', '#dc2626', '#db2777', '#9333ea', '#4f46e5', '#475569', '#0f766e'];

/**
 * Downloads a file the API serves behind the bearer token (exports): a plain
 * link cannot carry the token, so fetch it as a blob and hand it to the browser.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<void> {
  await ensureFreshToken();
  const res = await fetch(`${API_BASE}${path}`, {
    headers: { authorization: `Bearer ${getAccessToken() ?? ''}`, 'accept-language': i18next.language || 'pt' },
  });
  if (!res.ok) throw new ApiError(res.status, 'ERR_DOWNLOAD', res.statusText);
  const blob = await res.blob();
  const disposition = res.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Contact numbers: digits with the country code (10 to 15 digits), optional leading +. */
export function isPhoneWithCountry(value: string): boolean {
  const v = value.trim();
  if (!/^\+?[\d\s().-]+$/.test(v)) return false;
  const digits = v.replace(/\D/g, '');
  return digits.length >= 10 && digits.length <= 15;
}
