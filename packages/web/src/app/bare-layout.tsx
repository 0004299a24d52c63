import { PRODUCT_NAME } from '@bulwark/domain';
import { Box, Container, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { LazyLanguageSwitch } from '../features/account/language-switch-lazy.js';
import classes from './layout.module.css';

/** Signed-out and session pages: brand, language choice, one centred column. */
export function BareLayout() {
  const { t } = useTranslation();
  return (
    <Box mih="100vh" bg="gray.0">
      <a href="#main" className={classes.skipLink}>
        {t('shell.skipToContent')}
      </a>
      <Group justify="space-between" px="md" py="sm" component="header">
        <Text fw={700} size="lg">
          {PRODUCT_NAME}
        </Text>
        <LazyLanguageSwitch />
      </Group>
      <Container size={440} py="xl" component="main" id="main" tabIndex={-1}>
        <Outlet />
      </Container>
    </Box>
  );
}
