import { Alert, Badge, Box, Button, CloseButton, Group, Modal, ScrollArea, Skeleton, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconAlertCircle, IconLink, IconSearch, IconSend } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { ErrorBox, errorMessage, usePluginTranslation, type ComposerExtensionProps, type ComposerTemplate } from '@atende/ui-shell/sdk';
import { approvedTemplatesKey, listApprovedTemplates, type Template } from './api.ts';

export interface TemplatePickerProps extends ComposerExtensionProps {
  channelId: number;
  opened: boolean;
  onClose(): void;
}

const PLACEHOLDER = /(\{\{\s*[A-Za-z0-9_]+\s*\}\})/g;
const nameOf = (placeholder: string) => placeholder.replace(/[{}\s]/g, '');
const textOf = (tpl: Template, type: string) => tpl.components.find((c) => c.type?.toUpperCase() === type);

/** The inputs a template needs, keyed `header:1`, `body:nome`, `button:0`. */
function fieldsOf(tpl: Template) {
  const v = tpl.variables;
  const header = textOf(tpl, 'HEADER');
  const body = textOf(tpl, 'BODY');
  return [
    ...v.header.map((n, i) => ({ key: `header:${n}`, part: 'header' as const, name: n, example: header?.example?.header_text?.[i] })),
    ...v.body.map((n, i) => ({ key: `body:${n}`, part: 'body' as const, name: n, example: body?.example?.body_text?.[0]?.[i] })),
    ...v.buttons.map((b) => ({ key: `button:${b.index}`, part: 'button' as const, name: b.text, example: undefined as string | undefined })),
  ];
}

/** What `POST /api/messages/:ticketId` takes for the template with these values. */
function requestOf(tpl: Template, values: Record<string, string>): ComposerTemplate {
  const v = tpl.variables;
  const components: NonNullable<ComposerTemplate['components']> = [];
  if (v.header.length) components.push({ type: 'header', parameters: v.header.map((n) => values[`header:${n}`] ?? '') });
  if (v.body.length) components.push({ type: 'body', parameters: v.body.map((n) => values[`body:${n}`] ?? '') });
  for (const b of v.buttons) components.push({ type: 'button', subType: b.subType, index: b.index, parameters: [values[`button:${b.index}`] ?? ''] });
  return { name: tpl.name, language: tpl.language, components };
}

/**
 * The template picker: search, the channel's approved templates (name,
 * language, category), a WhatsApp-like preview with the values filled in as
 * the agent types, one input per placeholder, and Send. The server checks
 * the same rules again and stores the text the customer receives.
 */
export default function TemplatePicker({ channelId, opened, onClose, send, ticket }: TemplatePickerProps) {
  const { t } = usePluginTranslation('channel-waba');
  const list = useQuery({ queryKey: approvedTemplatesKey(channelId), queryFn: ({ signal }) => listApprovedTemplates(channelId, signal), enabled: opened, staleTime: 30_000 });
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // On a phone the picker takes the whole screen and the list sits above the preview.
  const narrow = useMediaQuery('(max-width: 48em)');

  const templates = useMemo(() => {
    const term = search.trim().toLowerCase();
    return (list.data?.templates ?? []).filter((x) => !term || x.name.toLowerCase().includes(term) || (textOf(x, 'BODY')?.text ?? '').toLowerCase().includes(term));
  }, [list.data, search]);
  const keyOf = (x: Template) => `${x.name}|${x.language}`;
  const tpl = templates.find((x) => keyOf(x) === picked) ?? (list.data?.templates ?? []).find((x) => keyOf(x) === picked);
  const fields = tpl ? fieldsOf(tpl) : [];
  const missing = fields.some((f) => !values[f.key]?.trim());

  // A fresh choice starts with empty values and no stale error; the first template is shown when none is chosen.
  useEffect(() => {
    setValues({});
    setError(null);
  }, [picked]);
  useEffect(() => {
    if (!picked && templates[0]) setPicked(keyOf(templates[0]));
  }, [templates, picked]);
  useEffect(() => {
    if (!opened) {
      setSearch('');
      setPicked(null);
    }
  }, [opened]);

  const submit = async () => {
    if (!tpl || missing || tpl.variables.mediaHeader) return;
    setSending(true);
    setError(null);
    try {
      await send({ template: requestOf(tpl, values) });
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} size={860} fullScreen={narrow} radius="md" padding={0} title={null} withCloseButton={false} data-testid="waba-template-picker">
      <Group justify="space-between" align="flex-start" wrap="nowrap" px="lg" py="md" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <div style={{ minWidth: 0 }}>
          <Text fw={600}>{t('pickerTitle')}</Text>
          <Text size="xs" c="dimmed">{t('pickerSubtitle', { name: ticket.contactName ?? '' })}</Text>
        </div>
        <CloseButton onClick={onClose} aria-label={t('common.close')} />
      </Group>
      <Box style={{ display: 'grid', gridTemplateColumns: narrow ? '1fr' : 'minmax(240px, 300px) 1fr', minHeight: 440 }}>
        <Stack gap={0} style={{ [narrow ? 'borderBottom' : 'borderRight']: '1px solid var(--mantine-color-default-border)', minWidth: 0 }}>
          <Box p="sm">
            <TextInput
              leftSection={<IconSearch size={15} />}
              placeholder={t('pickerSearch')}
              aria-label={t('pickerSearch')}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              data-testid="waba-template-search"
              data-autofocus
            />
          </Box>
          <ScrollArea h={narrow ? 220 : 420} px={6} pb={6}>
            {list.isLoading ? (
              <Stack gap={6} p={6}>{[0, 1, 2, 3].map((i) => <Skeleton key={i} h={52} radius="md" />)}</Stack>
            ) : list.error ? (
              <Box p="sm"><ErrorBox compact error={list.error} onRetry={() => void list.refetch()} /></Box>
            ) : !templates.length ? (
              <Text size="sm" c="dimmed" p="sm" data-testid="waba-template-empty">{search ? t('pickerNoMatch') : t('pickerNone')}</Text>
            ) : (
              templates.map((x) => {
                const active = tpl && keyOf(x) === keyOf(tpl);
                return (
                  <UnstyledButton
                    key={keyOf(x)}
                    w="100%"
                    px="sm"
                    py={8}
                    mb={2}
                    onClick={() => setPicked(keyOf(x))}
                    data-testid="waba-template-option"
                    data-active={active || undefined}
                    aria-pressed={!!active}
                    style={{ borderRadius: 8, background: active ? 'var(--mantine-primary-color-light)' : undefined }}
                  >
                    <Group justify="space-between" gap={6} wrap="nowrap">
                      <Text size="sm" fw={600} truncate="end" ff="monospace">{x.name}</Text>
                      <Badge size="xs" variant="default" tt="none" style={{ flexShrink: 0 }}>{x.language}</Badge>
                    </Group>
                    <Group gap={6} mt={2} wrap="nowrap">
                      {x.category && <Badge size="xs" variant="light" color={categoryColor(x.category)} style={{ flexShrink: 0 }}>{t(`category_${x.category}`, { defaultValue: x.category })}</Badge>}
                      <Text size="xs" c="dimmed" truncate="end">{textOf(x, 'BODY')?.text ?? ''}</Text>
                    </Group>
                  </UnstyledButton>
                );
              })
            )}
          </ScrollArea>
        </Stack>

        <Stack gap="md" p="lg" style={{ minWidth: 0 }}>
          {tpl ? (
            <>
              <Box>
                <Text size="xs" fw={600} c="dimmed" tt="uppercase" mb={6}>{t('pickerPreview')}</Text>
                <Box p="md" style={{ borderRadius: 10, background: 'light-dark(#efeae2, var(--mantine-color-dark-6))' }}>
                  <Preview tpl={tpl} values={values} />
                </Box>
              </Box>
              {tpl.variables.mediaHeader ? (
                <Alert color="orange" icon={<IconAlertCircle size={16} />} data-testid="waba-template-media">{t('pickerMediaHeader')}</Alert>
              ) : fields.length ? (
                <Stack gap="xs">
                  <Text size="xs" fw={600} c="dimmed" tt="uppercase">{t('pickerVariables')}</Text>
                  {fields.map((f, i) => (
                    <TextInput
                      key={f.key}
                      label={f.part === 'button' ? t('pickerButtonVariable', { button: f.name }) : t(f.part === 'header' ? 'pickerHeaderVariable' : 'pickerBodyVariable', { name: `{{${f.name}}}` })}
                      leftSection={f.part === 'button' ? <IconLink size={14} /> : undefined}
                      placeholder={f.example ?? ''}
                      value={values[f.key] ?? ''}
                      onChange={(e) => {
                        const v = e.currentTarget.value;
                        setValues((old) => ({ ...old, [f.key]: v }));
                      }}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter' && i === fields.length - 1) void submit();
                      }}
                      maxLength={1024}
                      data-testid="waba-template-variable"
                    />
                  ))}
                </Stack>
              ) : (
                <Text size="sm" c="dimmed">{t('pickerNoVariables')}</Text>
              )}
              {error && <Alert color="red" icon={<IconAlertCircle size={16} />} data-testid="waba-template-error">{error}</Alert>}
            </>
          ) : (
            !list.isLoading && <Text size="sm" c="dimmed">{t('pickerChoose')}</Text>
          )}
        </Stack>
      </Box>
      <Group justify="space-between" px="lg" py="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <Text size="xs" c="dimmed" style={{ flex: 1 }}>{t('pickerFooter')}</Text>
        <Group gap="xs">
          <Button variant="default" onClick={onClose}>{t('cancel')}</Button>
          <Button leftSection={<IconSend size={15} />} onClick={() => void submit()} loading={sending} disabled={!tpl || missing || !!tpl.variables.mediaHeader} data-testid="waba-template-send">
            {t('pickerSend')}
          </Button>
        </Group>
      </Group>
    </Modal>
  );
}

function categoryColor(category: string) {
  return ({ MARKETING: 'grape', UTILITY: 'blue', AUTHENTICATION: 'teal' } as Record<string, string>)[category.toUpperCase()] ?? 'gray';
}

/** A template's text with each placeholder shown as the value typed so far, or highlighted while empty. */
function Filled({ text, part, values }: { text: string; part: 'header' | 'body'; values: Record<string, string> }) {
  const pieces: ReactNode[] = text.split(PLACEHOLDER).map((piece, i) => {
    if (i % 2 === 0) return piece;
    const value = values[`${part}:${nameOf(piece)}`]?.trim();
    return value ? (
      <mark key={i} style={{ background: 'transparent', color: 'inherit', fontWeight: 600 }}>{value}</mark>
    ) : (
      <mark key={i} style={{ background: 'var(--mantine-color-yellow-light)', color: 'var(--mantine-color-yellow-9)', borderRadius: 4, padding: '0 3px' }}>{piece}</mark>
    );
  });
  return <>{pieces}</>;
}

function Preview({ tpl, values }: { tpl: Template; values: Record<string, string> }) {
  const header = textOf(tpl, 'HEADER');
  const body = textOf(tpl, 'BODY');
  const footer = textOf(tpl, 'FOOTER');
  const buttons = textOf(tpl, 'BUTTONS')?.buttons ?? [];
  return (
    <Box data-testid="waba-template-preview" style={{ maxWidth: 400 }}>
      <Box px="sm" py={8} style={{ background: 'light-dark(#fff, var(--mantine-color-dark-5))', borderRadius: 8, boxShadow: '0 1px 0.5px rgba(11,20,26,.13)' }}>
        {header?.text && <Text fw={700} size="sm" mb={4}><Filled text={header.text} part="header" values={values} /></Text>}
        {header && !header.text && header.format && <Text size="xs" c="dimmed" mb={4}>[{header.format.toLowerCase()}]</Text>}
        {body?.text && <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}><Filled text={body.text} part="body" values={values} /></Text>}
        {footer?.text && <Text size="xs" c="dimmed" mt={6}>{footer.text}</Text>}
      </Box>
      {buttons.map((b, i) => (
        <Box key={i} mt={3} py={6} ta="center" style={{ background: 'light-dark(#fff, var(--mantine-color-dark-5))', borderRadius: 8, boxShadow: '0 1px 0.5px rgba(11,20,26,.13)' }}>
          <Text size="sm" c="#00a5f4" fw={500}>{b.text}</Text>
        </Box>
      ))}
    </Box>
  );
}
