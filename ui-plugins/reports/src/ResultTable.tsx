import { Group, Pagination, Paper, Skeleton, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { EmptyState, ErrorBox, usePluginTranslation } from '@atende/ui-shell/sdk';

export interface Column<T> {
  key: string;
  title: string;
  render: (row: T) => ReactNode;
  align?: 'left' | 'right' | 'center';
}

export const PAGE_SIZE = 50;

/** A report's rows with the total and pages; a footer row (totals) when given. */
export function ResultTable<T>(props: {
  label: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  count: number;
  page?: number;
  onPage?: (page: number) => void;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  footer?: ReactNode;
}) {
  const { t } = usePluginTranslation('reports');
  const { columns, rows, count, page, onPage } = props;
  if (props.error) return <ErrorBox error={props.error} onRetry={props.onRetry} />;
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));
  return (
    <Paper withBorder radius="md">
      <Group justify="space-between" px="md" py="xs">
        <Text size="sm" c="dimmed" aria-live="polite">{rows ? t('count', { count }) : ' '}</Text>
      </Group>
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="xs" highlightOnHover aria-label={props.label} aria-busy={props.loading}>
          <Table.Thead>
            <Table.Tr>{columns.map((c) => <Table.Th key={c.key} ta={c.align}>{c.title}</Table.Th>)}</Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {!rows &&
              [0, 1, 2].map((i) => (
                <Table.Tr key={i}>{columns.map((c) => <Table.Td key={c.key}><Skeleton h={14} /></Table.Td>)}</Table.Tr>
              ))}
            {rows?.map((r) => (
              <Table.Tr key={props.rowKey(r)}>{columns.map((c) => <Table.Td key={c.key} ta={c.align}>{c.render(r)}</Table.Td>)}</Table.Tr>
            ))}
          </Table.Tbody>
          {props.footer && <Table.Tfoot>{props.footer}</Table.Tfoot>}
        </Table>
      </Table.ScrollContainer>
      {rows && rows.length === 0 && <EmptyState title={t('noRows')} />}
      {onPage && pages > 1 && (
        <Group justify="center" p="sm" className="rp-no-print">
          <Pagination size="sm" total={pages} value={page ?? 1} onChange={onPage} />
        </Group>
      )}
    </Paper>
  );
}
