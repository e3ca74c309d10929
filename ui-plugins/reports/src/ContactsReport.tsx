import { Badge, Button, Group, MultiSelect, Paper, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useOutletContext } from 'react-router-dom';
import { formatPhone, usePluginTranslation } from '@atende/ui-shell/sdk';
import { contactReport, getOptions, optionsKey, type ContactRow } from './api.ts';
import { ExportButton } from './ExportButton.tsx';
import type { ReportFrame } from './ReportsLayout.tsx';
import { PAGE_SIZE, ResultTable, type Column } from './ResultTable.tsx';

export type ContactKind = 'lista-contatos' | 'contatos-por-etiquetas' | 'contatos-por-estado' | 'contatos-por-carteira';

interface Filters {
  search: string;
  selected: string[];
}

/** The query parameter holding a report's required selection. */
const PARAM: Record<ContactKind, 'tagIds' | 'states' | 'walletIds' | null> = {
  'lista-contatos': null,
  'contatos-por-etiquetas': 'tagIds',
  'contatos-por-estado': 'states',
  'contatos-por-carteira': 'walletIds',
};

export const contactQuery = (kind: ContactKind, f: Filters) => {
  const p = PARAM[kind];
  return { search: f.search.trim() || undefined, ...(p ? { [p]: f.selected.join(',') || undefined } : {}) };
};

/** The contact reports (name, WhatsApp, email, plus wallets, state or tags); all but the list need at least one item selected (§5). */
function ContactsReport({ kind }: { kind: ContactKind }) {
  const { t } = usePluginTranslation('reports');
  const frame = useOutletContext<ReportFrame | undefined>();
  const options = useQuery({ queryKey: optionsKey, queryFn: getOptions });
  const [form, setForm] = useState<Filters>({ search: '', selected: [] });
  const needs = PARAM[kind];
  const [applied, setApplied] = useState<Filters | null>(needs ? null : form);
  const [page, setPage] = useState(1);
  const [missing, setMissing] = useState(false);
  const o = options.data;
  const choices =
    kind === 'contatos-por-etiquetas' ? (o?.tags ?? []).map((x) => ({ value: String(x.id), label: x.name }))
    : kind === 'contatos-por-carteira' ? (o?.users ?? []).map((x) => ({ value: String(x.id), label: x.name }))
    : (o?.states ?? []).map((s) => ({ value: s, label: s }));
  const pickLabel = kind === 'contatos-por-etiquetas' ? t('tags') : kind === 'contatos-por-carteira' ? t('wallets') : t('states');

  const list = useQuery({
    queryKey: ['plugins', 'reports', 'contacts', kind, applied, page],
    queryFn: ({ signal }) => contactReport(kind, { ...contactQuery(kind, applied!), pageNumber: page, limit: PAGE_SIZE }, signal),
    enabled: !!applied,
    placeholderData: keepPreviousData,
  });

  useEffect(() => {
    const lines: string[] = [];
    if (applied?.selected.length) lines.push(`${pickLabel}: ${applied.selected.map((v) => choices.find((c) => c.value === v)?.label ?? v).join(', ')}`);
    if (applied?.search.trim()) lines.push(`${t('search')}: ${applied.search.trim()}`);
    frame?.setFilters(lines);
  }, [applied, o]);

  const submit = () => {
    const lacks = !!needs && form.selected.length === 0;
    setMissing(lacks);
    if (lacks) return;
    setPage(1);
    setApplied(form);
  };

  const columns: Column<ContactRow>[] = [
    { key: 'name', title: t('name'), render: (r) => r.name },
    { key: 'number', title: t('whatsapp'), render: (r) => (r.number ? formatPhone(r.number) : '') },
    { key: 'email', title: t('email'), render: (r) => r.email ?? '' },
  ];
  if (kind === 'contatos-por-carteira' || kind === 'lista-contatos') columns.push({ key: 'wallets', title: t('wallets'), render: (r) => r.wallets.join(', ') });
  if (kind === 'contatos-por-estado' || kind === 'lista-contatos') columns.push({ key: 'state', title: t('state'), render: (r) => r.state ?? '' });
  if (kind === 'contatos-por-etiquetas' || kind === 'lista-contatos')
    columns.push({ key: 'tags', title: t('tags'), render: (r) => <Group gap={4}>{r.tags.map((x) => <Badge key={x} variant="light" radius="sm" size="sm">{x}</Badge>)}</Group> });
  columns.push({ key: 'extra', title: t('extraInfo'), render: (r) => r.extraInfo ?? '' });

  return (
    <>
      <Paper withBorder radius="md" p="sm" mb="md" className="rp-no-print">
        <Group gap="sm" align="flex-start" wrap="wrap">
          {needs && (
            <MultiSelect w={320} label={pickLabel} withAsterisk searchable clearable data={choices} value={form.selected}
              onChange={(v) => setForm((f) => ({ ...f, selected: v }))} error={missing ? t('required') : undefined} />
          )}
          <TextInput w={280} label={t('search')} placeholder={t('searchContacts')} leftSection={<IconSearch size={16} />} value={form.search}
            onChange={(e) => { const v = e.currentTarget.value; setForm((f) => ({ ...f, search: v })); }} onKeyDown={(e) => e.key === 'Enter' && submit()} />
        </Group>
        {missing && <Text c="red" size="sm" mt="xs" role="alert">{t('selectionRequired')}</Text>}
        <Group mt="sm" gap="sm">
          <Button leftSection={<IconSearch size={16} />} onClick={submit}>{t('generate')}</Button>
          {applied && <ExportButton report={kind} query={contactQuery(kind, applied)} />}
        </Group>
      </Paper>
      {applied ? (
        <ResultTable label={t(`r_${kind}`)} columns={columns} rows={list.data?.rows} rowKey={(r) => r.id} count={list.data?.count ?? 0}
          page={page} onPage={setPage} loading={list.isFetching} error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Text c="dimmed" size="sm">{t('chooseFilters')}</Text>
      )}
    </>
  );
}

export const ContactList = () => <ContactsReport kind="lista-contatos" />;
export const ContactsByTag = () => <ContactsReport kind="contatos-por-etiquetas" />;
export const ContactsByState = () => <ContactsReport kind="contatos-por-estado" />;
export const ContactsByWallet = () => <ContactsReport kind="contatos-por-carteira" />;
