import { Alert, Badge, Button, FileInput, Group, Modal, Progress, ScrollArea, SimpleGrid, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import { IconCircleCheck, IconFileSpreadsheet, IconInfoCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRealtime } from '@atende/ui-shell/sdk';
import { contactsKey, importStatus, startImport, type ImportState } from './api.ts';

const Stat = ({ label, value, color }: { label: string; value: number; color?: string }) => (
  <Stack gap={0} align="center">
    <Text fz={22} fw={700} c={color}>{value}</Text>
    <Text size="xs" c="dimmed" tt="uppercase" fw={600}>{label}</Text>
  </Stack>
);

/**
 * Import from CSV/XLSX: the server answers 202 with a job id; progress comes
 * on the socket (`contacts.import_progress`, `contacts.import_finished`) and a
 * slow poll covers a socket that is reconnecting.
 */
export function ImportModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [job, setJob] = useState<ImportState | null>(null);
  const finished = job?.status === 'finished' || job?.status === 'failed';
  const jobRef = useRef<string | null>(null);
  jobRef.current = job?.jobId ?? null;

  const merge = (data: ImportState) => {
    if (data.jobId !== jobRef.current) return;
    setJob((j) => (j && (j.status === 'finished' || j.status === 'failed') && !data.status ? j : { ...j, ...data }));
    if (data.status === 'finished') void qc.invalidateQueries({ queryKey: contactsKey });
  };
  useRealtime<ImportState>('contacts.import_progress', merge);
  useRealtime<ImportState>('contacts.import_finished', merge);

  useEffect(() => {
    if (!job || finished) return;
    const timer = setInterval(() => {
      importStatus(job.jobId).then(merge, () => undefined);
    }, 2000);
    return () => clearInterval(timer);
  }, [job?.jobId, finished]);

  const upload = async () => {
    if (!file) return;
    setUploading(true);
    try {
      const r = await startImport(file);
      jobRef.current = r.jobId;
      setJob({ jobId: r.jobId, total: r.total, processed: 0, imported: 0, rejected: 0, status: 'queued' });
    } catch {
      // toasted by the API client
    } finally {
      setUploading(false);
    }
  };

  const reset = () => {
    setJob(null);
    setFile(null);
  };
  const close = () => {
    onClose();
    if (finished) reset();
  };
  const pct = job && job.total > 0 ? Math.round((job.processed / job.total) * 100) : finished ? 100 : 0;

  return (
    <Modal opened={opened} onClose={close} title={<Text fw={700}>{t('admin.contacts.import.title')}</Text>} size="lg" radius="md">
      {!job ? (
        <Stack gap="md">
          <Alert variant="light" icon={<IconInfoCircle size={16} />}>{t('admin.contacts.import.help')}</Alert>
          <FileInput
            label={t('admin.contacts.import.file')}
            placeholder={t('admin.contacts.import.pick')}
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            leftSection={<IconFileSpreadsheet size={16} />}
            value={file}
            onChange={setFile}
            clearable
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>{t('common.cancel')}</Button>
            <Button onClick={() => void upload()} disabled={!file} loading={uploading}>{t('admin.contacts.import.start')}</Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="md">
          <Group justify="space-between">
            <Group gap="xs">
              {finished && job.status === 'finished' && <ThemeIcon color="teal" variant="light" radius="xl"><IconCircleCheck size={18} /></ThemeIcon>}
              <Text fw={600} data-testid="import-status">
                {job.status === 'failed' ? t('admin.contacts.import.failed') : finished ? t('admin.contacts.import.finished') : t('admin.contacts.import.running')}
              </Text>
            </Group>
            <Text size="sm" c="dimmed">{t('admin.contacts.import.processed', { processed: job.processed, total: job.total })}</Text>
          </Group>
          <Progress value={pct} size="lg" radius="xl" striped={!finished} animated={!finished} color={job.status === 'failed' ? 'red' : finished ? 'teal' : undefined} aria-label={t('admin.contacts.import.progress')} />
          <SimpleGrid cols={3}>
            <Stat label={t('admin.contacts.import.total')} value={job.total} />
            <Stat label={t('admin.contacts.import.imported')} value={job.imported} color="teal" />
            <Stat label={t('admin.contacts.import.rejected')} value={job.rejected} color={job.rejected ? 'red' : undefined} />
          </SimpleGrid>
          {job.status === 'failed' && job.message && <Alert color="red" variant="light" role="alert">{job.message}</Alert>}
          {finished && (job.errors?.length ?? 0) > 0 && (
            <Stack gap={6}>
              <Text fw={600} size="sm">{t('admin.contacts.import.rejectedRows')}</Text>
              <ScrollArea.Autosize mah={240} type="auto">
                <Table striped withTableBorder verticalSpacing={6} fz="sm" aria-label={t('admin.contacts.import.rejectedRows')}>
                  <Table.Thead>
                    <Table.Tr><Table.Th w={90}>{t('admin.contacts.import.row')}</Table.Th><Table.Th>{t('admin.contacts.import.reason')}</Table.Th></Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {job.errors!.map((e) => (
                      <Table.Tr key={`${e.row}-${e.code}`}>
                        <Table.Td><Badge variant="light" color="gray" radius="sm">{e.row}</Badge></Table.Td>
                        <Table.Td>{e.reason}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea.Autosize>
              {job.errorsTruncated && <Text size="xs" c="dimmed">{t('admin.contacts.import.truncated')}</Text>}
            </Stack>
          )}
          <Group justify="flex-end" gap="xs">
            {finished && <Button variant="default" onClick={reset}>{t('admin.contacts.import.another')}</Button>}
            <Button onClick={close}>{finished ? t('common.close') : t('admin.contacts.import.background')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
