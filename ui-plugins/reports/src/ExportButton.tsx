import { Button, Group, Progress, Text } from '@mantine/core';
import { IconDownload, IconFileSpreadsheet } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { notify, errorMessage, usePluginTranslation } from '@atende/ui-shell/sdk';
import type { ExportInput } from '@atende/plugin-reports/contract';
import { downloadExport, getExport, startExport } from './api.ts';

/**
 * Excel export of the report as it was generated: the server runs it as a job;
 * the progress shows here and the file is offered once ready (kept a day).
 */
export function ExportButton({ report, query }: { report: ExportInput['report']; query: Record<string, string | number | undefined> }) {
  const { t } = usePluginTranslation('reports');
  const [id, setId] = useState<number | null>(null);
  const clean = Object.fromEntries(Object.entries(query).filter((e): e is [string, string | number] => e[1] !== undefined));
  const key = JSON.stringify([report, clean]);
  // A new filter set is a new report: the previous file no longer matches it.
  useEffect(() => setId(null), [key]);
  const start = useMutation({ mutationFn: () => startExport({ report, query: clean }), onSuccess: (e) => setId(e.id) });
  const state = useQuery({
    queryKey: ['plugins', 'reports', 'export', id],
    queryFn: ({ signal }) => getExport(id!, signal),
    enabled: id != null,
    refetchInterval: (q) => (q.state.data && (q.state.data.status === 'done' || q.state.data.status === 'failed') ? false : 1000),
  });
  const s = id != null ? state.data : undefined;
  const download = useMutation({ mutationFn: () => downloadExport(id!, `${report}.xlsx`), onError: (e) => notify.error(errorMessage(e)) });

  if (s?.status === 'done')
    return (
      <Group gap="xs">
        <Button variant="light" color="teal" leftSection={<IconDownload size={16} />} loading={download.isPending} onClick={() => download.mutate()}>
          {t('downloadExcel')}
        </Button>
        <Text size="xs" c="dimmed">{t('exportRows', { count: s.rows ?? 0 })}</Text>
      </Group>
    );
  if (id != null && s?.status !== 'failed')
    return (
      <Group gap="xs" w={260} role="status" aria-label={t('exporting')}>
        <Text size="sm">{t('exporting')}</Text>
        <Progress value={s?.progress ?? 0} w={120} animated aria-label={t('exportProgress', { progress: s?.progress ?? 0 })} />
        <Text size="xs" c="dimmed">{s?.progress ?? 0}%</Text>
      </Group>
    );
  return (
    <Group gap="xs">
      <Button variant="default" leftSection={<IconFileSpreadsheet size={16} />} loading={start.isPending} onClick={() => start.mutate()}>
        {t('exportExcel')}
      </Button>
      {s?.status === 'failed' && <Text size="sm" c="red">{t('exportFailed')}</Text>}
    </Group>
  );
}
