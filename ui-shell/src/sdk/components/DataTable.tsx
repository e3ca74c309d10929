import { Box, Group, Pagination, Paper, ScrollArea, Select, Skeleton, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp, IconSearch, IconSelector } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './EmptyState.tsx';
import { ErrorBox } from './ErrorBox.tsx';

export interface DataTableColumn<T> {
  key: string;
  title: ReactNode;
  /** Cell content; defaults to `row[key]`. */
  render?: (row: T) => ReactNode;
  sortable?: boolean;
  width?: number | string;
  align?: 'left' | 'center' | 'right';
}

export interface DataTableSort {
  key: string;
  direction: 'asc' | 'desc';
}

/** What the table asks the server for: 1-based page, page size, sort and search text. */
export interface DataTableQuery {
  page: number;
  pageSize: number;
  sort?: DataTableSort;
  search: string;
}

/** One page of results. */
export interface DataTablePage<T> {
  rows: T[];
  total: number;
}

export interface DataTableProps<T> {
  columns: DataTableColumn<T>[];
  rowKey: (row: T) => string | number;
  /** Rows of the current page (undefined while the first page loads). */
  rows: T[] | undefined;
  total: number;
  query: DataTableQuery;
  onQueryChange: (query: DataTableQuery) => void;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  searchPlaceholder?: string;
  /** Extra controls to the right of the search box (filters). */
  toolbar?: ReactNode;
  /** Shown when there are no rows (an EmptyState). */
  empty?: ReactNode;
  pageSizes?: number[];
  onRowClick?: (row: T) => void;
}

/** Initial table state; keep it in the screen (or the URL) and pass it back. */
export function useDataTableState(initial: Partial<DataTableQuery> = {}) {
  return useState<DataTableQuery>({ page: 1, pageSize: 10, search: '', ...initial });
}

/**
 * Applies search, sort and paging in the browser, for endpoints that answer
 * the whole (small) list; large lists must page on the server instead.
 */
export function paginateLocally<T>(all: T[], q: DataTableQuery, text: (row: T) => string): DataTablePage<T> {
  const needle = q.search.trim().toLocaleLowerCase();
  let rows = needle ? all.filter((r) => text(r).toLocaleLowerCase().includes(needle)) : [...all];
  if (q.sort) {
    const { key, direction } = q.sort;
    const sign = direction === 'asc' ? 1 : -1;
    rows.sort((a, b) => {
      const va = (a as Record<string, unknown>)[key];
      const vb = (b as Record<string, unknown>)[key];
      if (typeof va === 'number' && typeof vb === 'number') return (va - vb) * sign;
      return String(va ?? '').localeCompare(String(vb ?? ''), undefined, { sensitivity: 'base', numeric: true }) * sign;
    });
  }
  const total = rows.length;
  const start = (q.page - 1) * q.pageSize;
  rows = rows.slice(start, start + q.pageSize);
  return { rows, total };
}

function SortIcon({ active, direction }: { active: boolean; direction?: 'asc' | 'desc' }) {
  if (!active) return <IconSelector size={14} stroke={1.5} />;
  return direction === 'asc' ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />;
}

/** Dense table with server-side pagination, sorting and search (docs/ui.md "Admin screens"). */
export function DataTable<T>(props: DataTableProps<T>) {
  const { columns, rowKey, rows, total, query, onQueryChange, loading, error, onRetry, toolbar, empty, onRowClick } = props;
  const { t } = useTranslation();
  const [search, setSearch] = useState(query.search);
  const pushSearch = useDebouncedCallback((value: string) => onQueryChange({ ...query, search: value, page: 1 }), 300);
  const pageSizes = props.pageSizes ?? [10, 25, 50, 100];
  const pages = Math.max(1, Math.ceil(total / query.pageSize));
  const from = total === 0 ? 0 : (query.page - 1) * query.pageSize + 1;
  const to = Math.min(total, query.page * query.pageSize);

  const toggleSort = (key: string) => {
    const dir = query.sort?.key === key && query.sort.direction === 'asc' ? 'desc' : 'asc';
    onQueryChange({ ...query, sort: { key, direction: dir }, page: 1 });
  };

  let body: ReactNode;
  if (error && !rows) {
    body = <Table.Tr><Table.Td colSpan={columns.length}><ErrorBox compact error={error} onRetry={onRetry} /></Table.Td></Table.Tr>;
  } else if (!rows || (loading && rows.length === 0)) {
    // Skeleton rows keep the layout still while the first page loads.
    body = Array.from({ length: Math.min(query.pageSize, 6) }, (_, i) => (
      <Table.Tr key={`sk-${i}`}>
        {columns.map((c) => <Table.Td key={c.key}><Skeleton height={14} radius="sm" width={i % 2 ? '60%' : '80%'} /></Table.Td>)}
      </Table.Tr>
    ));
  } else if (rows.length === 0) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={columns.length}>{empty ?? <EmptyState title={t('dataTable.empty')} />}</Table.Td>
      </Table.Tr>
    );
  } else {
    body = rows.map((row) => (
      <Table.Tr key={rowKey(row)} onClick={onRowClick ? () => onRowClick(row) : undefined} style={onRowClick ? { cursor: 'pointer' } : undefined}>
        {columns.map((c) => (
          <Table.Td key={c.key} ta={c.align}>
            {c.render ? c.render(row) : String((row as Record<string, unknown>)[c.key] ?? '')}
          </Table.Td>
        ))}
      </Table.Tr>
    ));
  }

  return (
    <Paper withBorder radius="md" p={0} style={{ overflow: 'hidden' }}>
      <Group justify="space-between" p="sm" gap="sm" wrap="wrap">
        <TextInput
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            pushSearch(e.currentTarget.value);
          }}
          placeholder={props.searchPlaceholder ?? t('dataTable.search')}
          aria-label={props.searchPlaceholder ?? t('dataTable.search')}
          leftSection={<IconSearch size={16} stroke={1.6} />}
          w={{ base: '100%', sm: 300 }}
        />
        {toolbar && <Group gap="xs">{toolbar}</Group>}
      </Group>
      <ScrollArea type="auto">
        <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md" striped={false} aria-busy={loading}>
          <Table.Thead bg="var(--mantine-color-default-hover)">
            <Table.Tr>
              {columns.map((c) => {
                const active = query.sort?.key === c.key;
                return (
                  <Table.Th key={c.key} w={c.width} ta={c.align} aria-sort={active ? (query.sort?.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
                    {c.sortable ? (
                      <UnstyledButton onClick={() => toggleSort(c.key)} fw={600} fz="sm">
                        <Group gap={4} wrap="nowrap">{c.title}<SortIcon active={active} direction={query.sort?.direction} /></Group>
                      </UnstyledButton>
                    ) : (
                      <Text fw={600} fz="sm">{c.title}</Text>
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{body}</Table.Tbody>
        </Table>
      </ScrollArea>
      <Box px="sm" py="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Group gap="xs">
            <Text size="sm" c="dimmed">{t('dataTable.range', { from, to, total })}</Text>
            <Select
              size="xs"
              w={80}
              aria-label={t('dataTable.pageSize')}
              data={pageSizes.map(String)}
              value={String(query.pageSize)}
              allowDeselect={false}
              onChange={(v) => v && onQueryChange({ ...query, pageSize: Number(v), page: 1 })}
            />
          </Group>
          <Pagination
            size="sm"
            total={pages}
            value={Math.min(query.page, pages)}
            onChange={(page) => onQueryChange({ ...query, page })}
            getControlProps={(control) => ({ 'aria-label': t(`dataTable.${control}`) })}
            getItemProps={(page) => ({ 'aria-label': t('dataTable.page', { page }) })}
          />
        </Group>
      </Box>
    </Paper>
  );
}
