import { Box, Button, Flex, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconBrandInstagram, IconBrandMessenger, IconBrandTelegram, IconBrandWhatsapp, IconChartBar, IconMessageChatbot,
  IconRobot, IconUsersGroup, IconWorld,
} from '@tabler/icons-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../i18n/index.ts';
import { BrandMark } from '../../layout/BrandMark.tsx';

const loadLanguageMenu = () => import('./LanguageMenu.tsx');
const LanguageMenu = lazy(loadLanguageMenu);

/**
 * The language button. Its menu (Mantine's Menu and floating layer, ~9 KB
 * gzip) is fetched when the pointer or focus reaches the button and shown on
 * the first click, not downloaded with the login page (docs/performance.md U1).
 */
function LanguagePicker() {
  const { i18n, t } = useTranslation();
  const [wanted, setWanted] = useState(false);
  const current = LANGUAGES.find((l) => l.code === i18n.language) ?? LANGUAGES[0];
  const button = (
    <Button
      variant="subtle" color="gray" size="xs" leftSection={<IconWorld size={16} stroke={1.6} />} aria-label={`${t('layout.language')}: ${current.label}`}
      onPointerEnter={() => void loadLanguageMenu()} onFocus={() => void loadLanguageMenu()} onClick={() => setWanted(true)}
    >
      {current.label}
    </Button>
  );
  return wanted ? <Suspense fallback={button}><LanguageMenu /></Suspense> : button;
}

function Feature({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <Group gap="md" wrap="nowrap" align="flex-start">
      <ThemeIcon size={40} radius="md" variant="white" color="brand" style={{ flexShrink: 0, background: 'rgba(255,255,255,0.14)', color: 'white' }}>
        {icon}
      </ThemeIcon>
      <div>
        <Text fw={600} c="white">{title}</Text>
        <Text size="sm" c="rgba(255,255,255,0.78)">{text}</Text>
      </div>
    </Group>
  );
}

/** The product side of the auth pages: what Atende is, in the tenant's colour. */
function Hero() {
  const { t } = useTranslation();
  return (
    <Box
      h="100%"
      mih="100vh"
      p={48}
      pos="relative"
      style={{
        overflow: 'hidden',
        color: 'white',
        background: 'linear-gradient(150deg, var(--mantine-color-brand-6) 0%, var(--mantine-color-brand-8) 55%, var(--mantine-color-brand-9) 100%)',
      }}
    >
      {/* Soft light shapes: depth without an image request. */}
      <Box pos="absolute" style={{ width: 420, height: 420, borderRadius: '50%', top: -140, right: -160, background: 'radial-gradient(circle, rgba(255,255,255,0.18), transparent 70%)' }} />
      <Box pos="absolute" style={{ width: 360, height: 360, borderRadius: '50%', bottom: -160, left: -120, background: 'radial-gradient(circle, rgba(255,255,255,0.12), transparent 70%)' }} />
      <Stack h="100%" justify="space-between" pos="relative" gap={40}>
        <Group gap="sm">
          <ThemeIcon size={40} radius="md" style={{ background: 'rgba(255,255,255,0.16)' }}>
            <IconMessageChatbot size={24} stroke={1.7} />
          </ThemeIcon>
          <Text fw={700} fz="xl" c="white">{t('app.name')}</Text>
        </Group>
        <Stack gap="xl" maw={460}>
          <Title order={1} c="white" fz={36} lh={1.15} fw={800}>{t('auth.heroTitle')}</Title>
          <Text fz="lg" c="rgba(255,255,255,0.85)">{t('auth.heroText')}</Text>
          <Stack gap="lg" mt="sm">
            <Feature icon={<IconUsersGroup size={22} stroke={1.6} />} title={t('auth.featureQueuesTitle')} text={t('auth.featureQueuesText')} />
            <Feature icon={<IconRobot size={22} stroke={1.6} />} title={t('auth.featureBotsTitle')} text={t('auth.featureBotsText')} />
            <Feature icon={<IconChartBar size={22} stroke={1.6} />} title={t('auth.featureReportsTitle')} text={t('auth.featureReportsText')} />
          </Stack>
        </Stack>
        <Group gap="md" c="rgba(255,255,255,0.8)">
          <IconBrandWhatsapp size={22} stroke={1.5} />
          <IconBrandTelegram size={22} stroke={1.5} />
          <IconBrandInstagram size={22} stroke={1.5} />
          <IconBrandMessenger size={22} stroke={1.5} />
          <Text size="sm" c="rgba(255,255,255,0.8)">{t('auth.channels')}</Text>
        </Group>
      </Stack>
    </Box>
  );
}

/** Split page for login, signup and reset: product on the left, the form on the right. */
export function AuthLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <Flex mih="100vh">
      <Box w="42%" maw={640} visibleFrom="md" style={{ flexShrink: 0 }}>
        <Hero />
      </Box>
      <Stack mih="100vh" gap={0} flex={1}>
        <Group justify="space-between" p="md">
          <Group gap="xs" hiddenFrom="md">
            <BrandMark size={32} />
            <TextName />
          </Group>
          <Box visibleFrom="md" />
          <LanguagePicker />
        </Group>
        <Box flex={1} px="md" py="xl" style={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <Box w="100%" maw={wide ? 640 : 420}>{children}</Box>
        </Box>
      </Stack>
    </Flex>
  );
}

function TextName() {
  const { t } = useTranslation();
  return <Text fw={700}>{t('app.name')}</Text>;
}
