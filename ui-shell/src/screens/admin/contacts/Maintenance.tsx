import { Alert, Badge, Button, Card, Group, Modal, Radio, ScrollArea, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconArrowRight, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, EmptyState, ErrorBox, errorMessage, notify } from '@atende/ui-shell/sdk';
import { applyNinthDigit, contactsKey, findDuplicates, mergeContacts, previewNinthDigit, validateContacts, type DuplicateGroup } from './api.ts';

const Loading = () => <Stack gap="xs">{[1, 2, 3].map((i) => <Skeleton key={i} height={36} radius="sm" />)}</Stack>;

function DuplicateCard({ group, onMerged }: { group: DuplicateGroup; onMerged: (summary: string) => void }) {
  const { t } = useTranslation();
  const [keep, setKeep] = useState(String(group.contacts[0]!.id));
  const [confirming, setConfirming] = useState(false);
  const kept = group.contacts.find((c) => String(c.id) === keep);
  const others = group.contacts.filter((c) => String(c.id) !== keep);
  const merge = useMutation({
    mutationFn: () => mergeContacts(Number(keep), others.map((c) => c.id)),
    onSuccess: (r) => {
      // The toast is brief (spec timing); the summary stays above the list until the window closes.
      const summary = t('admin.contacts.duplicates.result', {
        name: kept?.name ?? '',
        contacts: t('admin.contacts.duplicates.contacts', { count: r.mergedIds.length }),
        tickets: t('admin.contacts.duplicates.tickets', { count: r.ticketsMoved }),
      });
      notify.success(summary);
      onMerged(summary);
    },
    onError: (e) => notify.error(errorMessage(e)),
  });
  return (
    <Card withBorder radius="md" p="sm">
      <Group justify="space-between" mb={6}>
        <Group gap="xs">
          <Badge variant="light" radius="sm">{t(`admin.contacts.duplicates.by.${group.reason}`)}</Badge>
          <Text size="sm" ff="monospace">{group.key}</Text>
        </Group>
        <Button size="xs" onClick={() => setConfirming(true)} loading={merge.isPending} data-testid="duplicates-merge">{t('admin.contacts.duplicates.merge')}</Button>
      </Group>
      <Radio.Group value={keep} onChange={setKeep} aria-label={t('admin.contacts.duplicates.keep')}>
        <Stack gap={4}>
          {group.contacts.map((c) => (
            <Radio
              key={c.id}
              value={String(c.id)}
              label={<Group gap="xs"><Text size="sm" fw={500}>{c.name}</Text><Text size="xs" c="dimmed">{[c.number, c.email].filter(Boolean).join(' · ')}</Text><Text size="xs" c="dimmed">#{c.id}</Text></Group>}
            />
          ))}
        </Stack>
      </Radio.Group>
      <Text size="xs" c="dimmed" mt={6}>{t('admin.contacts.duplicates.keepHint')}</Text>
      {/* Merging deletes the other contacts: asked first, naming the one kept. */}
      <ConfirmDialog
        opened={confirming}
        title={t('admin.contacts.duplicates.confirmTitle')}
        message={t('admin.contacts.duplicates.confirm', { count: others.length, name: kept?.name ?? '' })}
        confirmLabel={t('admin.contacts.duplicates.merge')}
        onClose={() => setConfirming(false)}
        onConfirm={async () => { await merge.mutateAsync().catch(() => undefined); setConfirming(false); }}
      />
    </Card>
  );
}

export function DuplicatesModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ['admin', 'contacts', 'duplicates'], queryFn: findDuplicates, enabled: opened, gcTime: 0 });
  const [done, setDone] = useState<string[]>([]);
  useEffect(() => {
    if (!opened) setDone([]);
  }, [opened]);
  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={700}>{t('admin.contacts.duplicates.title')}</Text>} size="lg" radius="md">
      {done.length > 0 && (
        <Alert color="teal" icon={<IconCircleCheck size={18} />} mb="sm" data-testid="merge-result">
          <Stack gap={2}>{done.map((d, i) => <Text key={i} size="sm">{d}</Text>)}</Stack>
        </Alert>
      )}
      {q.isLoading ? <Loading /> : q.error ? <ErrorBox compact error={q.error} onRetry={() => void q.refetch()} /> : !q.data?.groups.length ? (
        <EmptyState icon={<IconCircleCheck size={28} />} title={t('admin.contacts.duplicates.none')} description={t('admin.contacts.duplicates.noneText')} />
      ) : (
        <ScrollArea.Autosize mah="65vh" type="auto">
          <Stack gap="sm">
            <Text size="sm" c="dimmed">{t('admin.contacts.duplicates.found', { count: q.data.groups.length })}</Text>
            {q.data.groups.map((g) => (
              <DuplicateCard key={`${g.reason}:${g.key}`} group={g} onMerged={(summary) => { setDone((d) => [...d, summary]); void q.refetch(); void qc.invalidateQueries({ queryKey: contactsKey }); }} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Modal>
  );
}

export function NinthDigitModal({ opened, onClose, canApply }: { opened: boolean; onClose: () => void; canApply: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ['admin', 'contacts', 'ninth-digit'], queryFn: previewNinthDigit, enabled: opened, gcTime: 0 });
  const apply = useMutation({
    mutationFn: applyNinthDigit,
    onSuccess: (r) => {
      notify.success(t('admin.contacts.ninth.applied', { fixed: r.fixed, conflicts: r.conflicts }));
      void qc.invalidateQueries({ queryKey: contactsKey });
      void q.refetch();
    },
  });
  const fixable = q.data?.candidates.filter((c) => c.conflictContactId === null).length ?? 0;
  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={700}>{t('admin.contacts.ninth.title')}</Text>} size="xl" radius="md">
      <Stack gap="sm">
        <Alert variant="light" icon={<IconInfoCircle size={16} />}>{t('admin.contacts.ninth.help')}</Alert>
        {q.data?.officialApi && <Alert variant="light" color="yellow">{t('admin.contacts.ninth.officialApi')}</Alert>}
        {q.isLoading ? <Loading /> : q.error ? <ErrorBox compact error={q.error} onRetry={() => void q.refetch()} /> : !q.data?.candidates.length ? (
          <EmptyState icon={<IconCircleCheck size={28} />} title={t('admin.contacts.ninth.none')} />
        ) : (
          <>
            <Text size="sm" fw={500}>{t('admin.contacts.ninth.preview', { count: q.data.count, fixable })}</Text>
            <ScrollArea.Autosize mah="45vh" type="auto">
              <Table striped withTableBorder verticalSpacing={6} fz="sm">
                <Table.Thead>
                  <Table.Tr><Table.Th>{t('admin.contacts.fields.name')}</Table.Th><Table.Th>{t('admin.contacts.ninth.current')}</Table.Th><Table.Th /><Table.Th>{t('admin.contacts.ninth.fixed')}</Table.Th><Table.Th>{t('admin.contacts.ninth.status')}</Table.Th></Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {q.data.candidates.map((c) => (
                    <Table.Tr key={c.id}>
                      <Table.Td>{c.name}</Table.Td>
                      <Table.Td ff="monospace">{c.number}</Table.Td>
                      <Table.Td w={24}><IconArrowRight size={14} /></Table.Td>
                      <Table.Td ff="monospace">{c.fixedNumber}</Table.Td>
                      <Table.Td>
                        {c.conflictContactId === null
                          ? <Badge color="teal" variant="light" radius="sm">{t('admin.contacts.ninth.willFix')}</Badge>
                          : <Badge color="orange" variant="light" radius="sm">{t('admin.contacts.ninth.conflict', { id: c.conflictContactId })}</Badge>}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          </>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>{t('common.close')}</Button>
          {canApply && <Button onClick={() => apply.mutate()} loading={apply.isPending} disabled={!fixable}>{t('admin.contacts.ninth.apply', { count: fixable })}</Button>}
        </Group>
      </Stack>
    </Modal>
  );
}

export function ValidateModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: ['admin', 'contacts', 'validate'], queryFn: validateContacts, enabled: opened, gcTime: 0 });
  const d = q.data;
  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={700}>{t('admin.contacts.validate.title')}</Text>} size="xl" radius="md">
      {q.isLoading ? <Loading /> : q.error || !d ? <ErrorBox compact error={q.error} onRetry={() => void q.refetch()} /> : (
        <Stack gap="sm">
          <SimpleGrid cols={4}>
            {([['checked', d.checked, undefined], ['valid', d.valid, 'teal'], ['invalid', d.invalidCount, d.invalidCount ? 'red' : undefined], ['withoutNumber', d.withoutNumber, undefined]] as const).map(([k, v, c]) => (
              <Card key={k} withBorder radius="md" p="sm">
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>{t(`admin.contacts.validate.${k}`)}</Text>
                <Text fz={24} fw={700} c={c}>{v}</Text>
              </Card>
            ))}
          </SimpleGrid>
          {d.invalid.length === 0 ? (
            <EmptyState icon={<IconCircleCheck size={28} />} title={t('admin.contacts.validate.allGood')} />
          ) : (
            <ScrollArea.Autosize mah="45vh" type="auto">
              <Table striped withTableBorder verticalSpacing={6} fz="sm">
                <Table.Thead>
                  <Table.Tr><Table.Th>{t('admin.contacts.fields.name')}</Table.Th><Table.Th>{t('admin.contacts.fields.number')}</Table.Th><Table.Th>{t('admin.contacts.validate.problem')}</Table.Th></Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.invalid.map((c) => (
                    <Table.Tr key={c.id}>
                      <Table.Td>{c.name}</Table.Td>
                      <Table.Td ff="monospace">{c.number}</Table.Td>
                      <Table.Td>
                        <Badge color="red" variant="light" radius="sm">{t(`admin.contacts.validate.problems.${c.problem}`, { defaultValue: c.problem })}</Badge>
                        {c.fixedNumber && <Text span size="xs" c="dimmed" ml="xs">→ {c.fixedNumber}</Text>}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          )}
          {d.officialApi && <Text size="xs" c="dimmed">{t('admin.contacts.ninth.officialApi')}</Text>}
        </Stack>
      )}
    </Modal>
  );
}
