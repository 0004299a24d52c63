import { BODY_PARTS, type BodyPart } from '@bulwark/domain';
import { Badge, Button, Checkbox, CloseButton, Group, Input, SimpleGrid, Stack, Text } from '@mantine/core';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { BACK, FRONT, type Region, type Shape } from './body-shapes.js';
import classes from './incidents.module.css';

type Props = {
  label: string;
  value: BodyPart[];
  onChange: (parts: BodyPart[]) => void;
  error?: string | undefined;
  /** Tells the regions of two victims apart. */
  idPrefix: string;
};

export function toggled(value: readonly BodyPart[], part: BodyPart): BodyPart[] {
  return value.includes(part) ? value.filter((p) => p !== part) : BODY_PARTS.filter((p) => p === part || value.includes(p));
}

/**
 * The body parts injured, marked on a drawing of a person (front and back) or picked from a list;
 * both show the same choice. Each drawing is one stop of the Tab key: the arrow keys move between its
 * parts and Space or Enter marks one, as in a group of checkboxes.
 */
export function BodyDiagram({ label, value, onChange, error, idPrefix }: Props) {
  const { t } = useTranslation();
  const [listOpen, setListOpen] = useState(false);
  const toggle = (part: BodyPart) => onChange(toggled(value, part));
  const name = (part: BodyPart) => t(`incidents.bodyParts.${part}`);

  return (
    <Input.Wrapper label={label} error={error} description={t('incidentsWeb.body.hint')}>
      <Stack gap="xs" mt={4}>
        <Group gap="md" justify="center" wrap="nowrap" className={classes.bodyViews}>
          <Figure regions={FRONT} view="front" value={value} onToggle={toggle} idPrefix={idPrefix} />
          <Figure regions={BACK} view="back" value={value} onToggle={toggle} idPrefix={idPrefix} />
        </Group>
        <Group gap={6} wrap="wrap" aria-live="polite">
          {value.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('incidentsWeb.body.none')}
            </Text>
          ) : (
            value.map((part) => (
              <Badge
                key={part}
                variant="light"
                color="red"
                size="lg"
                tt="none"
                fw={500}
                rightSection={
                  <CloseButton
                    size="xs"
                    variant="transparent"
                    aria-label={t('incidentsWeb.body.remove', { part: name(part) })}
                    onClick={() => toggle(part)}
                  />
                }
              >
                {name(part)}
              </Badge>
            ))
          )}
        </Group>
        <Group gap="xs">
          <Button variant="subtle" size="compact-sm" onClick={() => setListOpen((o) => !o)} aria-expanded={listOpen}>
            {listOpen ? t('incidentsWeb.body.hideList') : t('incidentsWeb.body.showList')}
          </Button>
          {value.length > 0 ? <CloseButton size="sm" aria-label={t('incidentsWeb.body.clear')} onClick={() => onChange([])} /> : null}
        </Group>
        {listOpen ? (
          <Checkbox.Group value={value} onChange={(v) => onChange(BODY_PARTS.filter((p) => v.includes(p)))} aria-label={label}>
            <SimpleGrid cols={{ base: 2, sm: 3 }} spacing={6} verticalSpacing={6}>
              {BODY_PARTS.map((part) => (
                <Checkbox key={part} value={part} label={name(part)} size="sm" />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
        ) : null}
      </Stack>
    </Input.Wrapper>
  );
}

function Figure(props: {
  regions: Region[];
  view: 'front' | 'back';
  value: BodyPart[];
  onToggle: (part: BodyPart) => void;
  idPrefix: string;
}) {
  const { regions, view, value, onToggle, idPrefix } = props;
  const { t } = useTranslation();
  const [active, setActive] = useState(0);
  const refs = useRef<(SVGGElement | null)[]>([]);
  const viewName = t(`incidents.bodyViews.${view}`);

  const move = (to: number) => {
    const next = (to + regions.length) % regions.length;
    setActive(next);
    refs.current[next]?.focus();
  };
  const onKey = (e: KeyboardEvent, i: number, part: BodyPart) => {
    if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      onToggle(part);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowRight') {
      e.preventDefault();
      move(i + 1);
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') {
      e.preventDefault();
      move(i - 1);
    } else if (e.key === 'Home') {
      e.preventDefault();
      move(0);
    } else if (e.key === 'End') {
      e.preventDefault();
      move(regions.length - 1);
    }
  };

  return (
    <Stack gap={2} align="center" className={classes.bodyFigure}>
      <Text size="xs" c="dimmed" id={`${idPrefix}-${view}`}>
        {viewName}
      </Text>
      <svg viewBox="0 0 200 400" role="group" aria-labelledby={`${idPrefix}-${view}`} className={classes.bodySvg}>
        {regions.map((r, i) => {
          const checked = value.includes(r.part);
          const partName = t(`incidents.bodyParts.${r.part}`);
          return (
            <g
              key={r.part}
              ref={(el) => {
                refs.current[i] = el;
              }}
              role="checkbox"
              aria-checked={checked}
              aria-label={t('incidentsWeb.body.region', { part: partName, view: viewName })}
              tabIndex={i === active ? 0 : -1}
              className={checked ? `${classes.region} ${classes.regionOn}` : classes.region}
              onClick={() => {
                setActive(i);
                onToggle(r.part);
              }}
              onKeyDown={(e) => onKey(e, i, r.part)}
              onFocus={() => setActive(i)}
            >
              <title>{partName}</title>
              {r.shapes.map((s, j) => (
                <ShapeOf key={j} shape={s} />
              ))}
            </g>
          );
        })}
      </svg>
    </Stack>
  );
}

function ShapeOf({ shape }: { shape: Shape }) {
  if (shape.kind === 'ellipse') return <ellipse cx={shape.cx} cy={shape.cy} rx={shape.rx} ry={shape.ry} />;
  return <rect x={shape.x} y={shape.y} width={shape.w} height={shape.h} rx={shape.r ?? 0} />;
}
