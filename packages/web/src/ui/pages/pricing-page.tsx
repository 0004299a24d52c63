import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../app/services.js';
import { useRunOnce } from '../../features/auth/use-run-once.js';
import { PageMessage } from './page-message.js';

/** The marketing site's pricing page; /pricing leaves the app for it (spec 000 §2). */
export const PRICING_URL = 'https://bulwark-ehs.example/pricing';

export function PricingPage() {
  const { t } = useTranslation();
  const { location } = useServices();
  useRunOnce(() => location.assign(PRICING_URL));
  return (
    <PageMessage title={t('screen.pricing')} action={<Anchor href={PRICING_URL}>{PRICING_URL}</Anchor>}>
      {t('pages.externalPricing')}
    </PageMessage>
  );
}
