import { Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { formatDateTime, usePluginTranslation } from '@atende/ui-shell/sdk';
import { REPORT_PATHS } from './paths.ts';
import { getOptions, optionsKey } from './api.ts';

/** What a report screen tells the frame: the filters it ran with, for the printed header. */
export interface ReportFrame {
  setFilters(lines: string[]): void;
}

/**
 * Print as a clean A4 page: the rail, the report menu, filter inputs and buttons
 * go; the header with the tenant's name, the filters and the date comes in.
 */
const PRINT_CSS = `
.rp-print-only { display: none; }
@media print {
  @page { size: A4; margin: 12mm; }
  html, body { background: #fff !important; }
  .rp-no-print { display: none !important; }
  .rp-print-only { display: block !important; }
  .rp-page { padding: 0 !important; max-width: none !important; }
  .rp-page table { font-size: 9pt; }
  .rp-page tr { break-inside: avoid; }
  .rp-page .mantine-Paper-root { border: none !important; box-shadow: none !important; }
}`;

/** `/relatorios`: the frame of the seven reports, outside the main layout. */
export default function ReportsLayout() {
  const { t, i18n } = usePluginTranslation('reports');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const options = useQuery({ queryKey: optionsKey, queryFn: getOptions });
  const [filters, setFilters] = useState<string[]>([]);
  const current = REPORT_PATHS.find((p) => pathname.startsWith(`/relatorios/${p}`));
  const frame: ReportFrame = { setFilters };
  return (
    <Box className="rp-page" p="lg" maw={1400} mx="auto">
      <style>{PRINT_CSS}</style>
      <Box className="rp-print-only" mb="md">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Text fw={700} size="lg">{options.data?.tenantName}</Text>
            <Title order={3}>{current ? t(`r_${current}`) : t('title')}</Title>
            {filters.map((f) => <Text key={f} size="sm">{f}</Text>)}
          </Stack>
          <Text size="sm">{t('printedAt', { date: formatDateTime(new Date().toISOString(), i18n.language) })}</Text>
        </Group>
      </Box>
      <Group className="rp-no-print" justify="space-between" mb="md">
        <Group gap="sm">
          <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate('/home')}>{t('back')}</Button>
          <Title order={2}>{t('title')}</Title>
        </Group>
        <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>{t('print')}</Button>
      </Group>
      <Group className="rp-no-print" gap="xs" mb="md" wrap="wrap" component="nav" aria-label={t('title')}>
        {REPORT_PATHS.map((p) => (
          <Button key={p} component={NavLink} to={`/relatorios/${p}`} size="xs" variant={current === p ? 'filled' : 'light'}>
            {t(`r_${p}`)}
          </Button>
        ))}
      </Group>
      <Outlet context={frame} />
    </Box>
  );
}
