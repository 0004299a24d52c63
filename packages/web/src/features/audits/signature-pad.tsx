import { Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { StoredImage } from '../../ui/index.js';
import type { FileRef } from './run-model.js';
import type { AuditUpload } from './uploads.js';

const WIDTH = 600;
const HEIGHT = 200;

/**
 * A signature drawn with a finger or the mouse, kept as a PNG picture of the audit (a signature
 * answer names one stored image). "Sign again" clears it.
 */
export function SignaturePad(props: {
  label: string;
  file: FileRef | null;
  disabled?: boolean;
  upload: AuditUpload | null;
  onChange: (file: FileRef | null) => void;
}) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const [inked, setInked] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (props.file)
    return (
      <Stack gap={4}>
        <Paper withBorder radius="sm" p={4} maw={WIDTH / 2} bg="white">
          <StoredImage url={props.file.url} alt={t('auditsWeb.signature.of', { label: props.label })} fit="contain" h={HEIGHT / 2} />
        </Paper>
        {props.disabled ? null : (
          <Button variant="subtle" size="compact-sm" w="fit-content" onClick={() => props.onChange(null)}>
            {t('auditsWeb.signature.again')}
          </Button>
        )}
      </Stack>
    );

  const point = (e: PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - r.left) / r.width) * WIDTH, y: ((e.clientY - r.top) / r.height) * HEIGHT };
  };
  const ctx = () => canvas.current?.getContext('2d') ?? null;

  function clear() {
    ctx()?.clearRect(0, 0, WIDTH, HEIGHT);
    setInked(false);
  }

  async function keep() {
    const c = canvas.current;
    if (!c || !props.upload) return;
    const blob = await new Promise<Blob | null>((resolve) => c.toBlob(resolve, 'image/png'));
    if (!blob) return;
    setError(null);
    setProgress(0);
    try {
      const stored = await props.upload('photo', new File([blob], 'signature.png', { type: 'image/png' }), setProgress);
      props.onChange(stored);
    } catch (err) {
      setError(isApiError(err) ? err.message : t('errors.somethingWentWrong'));
    } finally {
      setProgress(null);
    }
  }

  return (
    <Stack gap={6}>
      <Paper withBorder radius="sm" bg="white" style={{ touchAction: 'none', maxWidth: WIDTH }}>
        <canvas
          ref={canvas}
          width={WIDTH}
          height={HEIGHT}
          role="img"
          aria-label={t('auditsWeb.signature.pad', { label: props.label })}
          style={{ width: '100%', height: 'auto', display: 'block', cursor: props.disabled ? 'not-allowed' : 'crosshair' }}
          onPointerDown={(e) => {
            if (props.disabled) return;
            e.currentTarget.setPointerCapture(e.pointerId);
            drawing.current = true;
            const p = point(e);
            const c = ctx();
            if (!c) return;
            c.lineWidth = 3;
            c.lineCap = 'round';
            c.strokeStyle = '#1a1b1e';
            c.beginPath();
            c.moveTo(p.x, p.y);
          }}
          onPointerMove={(e) => {
            if (!drawing.current) return;
            const p = point(e);
            const c = ctx();
            c?.lineTo(p.x, p.y);
            c?.stroke();
            setInked(true);
          }}
          onPointerUp={() => (drawing.current = false)}
          onPointerLeave={() => (drawing.current = false)}
        />
      </Paper>
      <Text size="xs" c="dimmed">
        {t('auditsWeb.signature.help')}
      </Text>
      {progress !== null ? <Progress value={progress * 100} size="sm" aria-label={t('auditsWeb.signature.sending')} /> : null}
      {error ? (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : null}
      <Group gap="xs">
        <Button size="compact-md" onClick={() => void keep()} disabled={!inked || props.disabled || progress !== null}>
          {t('auditsWeb.signature.keep')}
        </Button>
        <Button size="compact-md" variant="default" onClick={clear} disabled={!inked || props.disabled}>
          {t('auditsWeb.signature.clear')}
        </Button>
      </Group>
    </Stack>
  );
}
