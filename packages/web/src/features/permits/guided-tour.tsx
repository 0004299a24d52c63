import type { TourKey } from '@bulwark/domain';
import { Box, Button, Group, Popover, Stack, Text } from '@mantine/core';
import { createContext, useContext, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useTourSeen } from '../tours/tours-api.js';

type Tour = { step: number | null; count: number; next: () => void; close: () => void };

const TourContext = createContext<Tour | null>(null);

/**
 * A guided tour of a screen: light popovers beside what they explain, one after the other, offered
 * once per user (the server remembers it) and closed for good by "Skip the tour" or the last "Done".
 * Wrap the screen in `<GuidedTour>` and each explained part in `<TourStop index>`.
 */
export function GuidedTour({ tourKey, count, children }: { tourKey: TourKey; count: number; children: ReactNode }) {
  const { seen, markSeen } = useTourSeen(tourKey);
  const [step, setStep] = useState(0);
  const [closed, setClosed] = useState(false);
  const close = () => {
    setClosed(true);
    markSeen();
  };
  const tour: Tour = {
    step: seen === false && !closed ? step : null,
    count,
    next: () => (step + 1 >= count ? close() : setStep(step + 1)),
    close,
  };
  return <TourContext.Provider value={tour}>{children}</TourContext.Provider>;
}

/** One stop of the tour: its popover opens beside the wrapped part when the tour reaches it. */
export function TourStop({ index, title, text, children }: { index: number; title: string; text: string; children: ReactNode }) {
  const { t } = useTranslation();
  const tour = useContext(TourContext);
  const titleId = useId();
  const opened = tour?.step === index;
  if (!tour) return <>{children}</>;
  const last = index + 1 >= tour.count;
  return (
    <Popover
      opened={opened}
      position="bottom-start"
      withArrow
      shadow="md"
      width={300}
      trapFocus={false}
      zIndex={300}
      // Only the open stop: a stop still fading out would take the click on the next one for a click outside.
      onDismiss={opened ? tour.close : undefined}
    >
      <Popover.Target>
        <Box>{children}</Box>
      </Popover.Target>
      {/* Named by its own title: Mantine would name the dialog after the part it points at. */}
      <Popover.Dropdown role="dialog" aria-labelledby={titleId} maw="calc(100vw - 24px)">
        <Stack gap="xs">
          <Text id={titleId} fw={600} size="sm">
            {title}
          </Text>
          <Text size="sm">{text}</Text>
          <Group justify="space-between" gap="xs">
            <Text size="xs" c="dimmed">
              {t('permitsWeb.tour.step', { step: index + 1, total: tour.count })}
            </Text>
            <Group gap={6}>
              {!last ? (
                <Button size="compact-sm" variant="subtle" onClick={tour.close}>
                  {t('permitsWeb.tour.skip')}
                </Button>
              ) : null}
              <Button size="compact-sm" onClick={tour.next}>
                {last ? t('permitsWeb.tour.done') : t('permitsWeb.tour.next')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
