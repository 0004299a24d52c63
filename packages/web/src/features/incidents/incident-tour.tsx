import { Box, Button, Group, Popover, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useTourSeen } from '../tours/tours-api.js';

/** The stops of the incident tour (spec 001 §2), in order: each names the form element it points at. */
export const INCIDENT_TOUR_STOPS = ['what', 'where', 'rating', 'victims'] as const;
export type IncidentTourStop = (typeof INCIDENT_TOUR_STOPS)[number];

export type IncidentTour = {
  /** The stop shown now, or null (not started, finished, dismissed, or seen before). */
  current: IncidentTourStop | null;
  next: () => void;
  dismiss: () => void;
};

/**
 * The short guided tour of the report form, shown once per user: it starts when the server says the
 * user has not seen it, and any way of leaving it (done, skip, Escape) records it as seen.
 */
export function useIncidentTour(enabled: boolean): IncidentTour {
  const { seen, markSeen } = useTourSeen('incident');
  const [index, setIndex] = useState(0);
  const [closed, setClosed] = useState(false);
  const running = enabled && seen === false && !closed;
  const end = () => {
    setClosed(true);
    markSeen();
  };
  return {
    current: running ? (INCIDENT_TOUR_STOPS[index] ?? null) : null,
    next: () => (index + 1 >= INCIDENT_TOUR_STOPS.length ? end() : setIndex(index + 1)),
    dismiss: end,
  };
}

/** Wraps a part of the form; while the tour stands here a popover explains it, with "next" and "skip". */
export function TourStop({ tour, stop, children }: { tour: IncidentTour; stop: IncidentTourStop; children: ReactNode }) {
  const { t } = useTranslation();
  const opened = tour.current === stop;
  const n = INCIDENT_TOUR_STOPS.indexOf(stop) + 1;
  const last = n === INCIDENT_TOUR_STOPS.length;
  return (
    <Popover
      opened={opened}
      onDismiss={tour.dismiss}
      closeOnEscape
      trapFocus
      returnFocus
      withArrow
      shadow="md"
      position="bottom-start"
      width="min(320px, calc(100vw - 32px))"
      withinPortal
    >
      <Popover.Target>
        <Box>{children}</Box>
      </Popover.Target>
      <Popover.Dropdown role="dialog" aria-labelledby={`tour-${stop}-title`} aria-describedby={`tour-${stop}-text`}>
        <Text fw={600} size="sm" id={`tour-${stop}-title`}>
          {t(`incidentsWeb.tour.${stop}.title`)}
        </Text>
        <Text size="sm" mt={4} id={`tour-${stop}-text`}>
          {t(`incidentsWeb.tour.${stop}.text`)}
        </Text>
        <Group justify="space-between" mt="sm" wrap="nowrap">
          <Text size="xs" c="dimmed">
            {t('incidentsWeb.tour.progress', { n, total: INCIDENT_TOUR_STOPS.length })}
          </Text>
          <Group gap="xs" wrap="nowrap">
            {last ? null : (
              <Button size="compact-sm" variant="subtle" onClick={tour.dismiss}>
                {t('incidentsWeb.tour.skip')}
              </Button>
            )}
            <Button size="compact-sm" onClick={tour.next} data-autofocus>
              {last ? t('incidentsWeb.tour.done') : t('incidentsWeb.tour.next')}
            </Button>
          </Group>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}
