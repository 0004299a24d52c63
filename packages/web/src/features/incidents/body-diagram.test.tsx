import type { BodyPart } from '@bulwark/domain';
import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n/setup.js';
import { BodyDiagram, toggled } from './body-diagram.js';

function Harness({ initial = [] as BodyPart[] }) {
  const [value, setValue] = useState<BodyPart[]>(initial);
  return <BodyDiagram label="Body parts injured" idPrefix="t" value={value} onChange={setValue} />;
}

function renderDiagram(initial?: BodyPart[]) {
  const i18n = createI18n('en');
  return render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider>
        <Harness initial={initial} />
      </MantineProvider>
    </I18nextProvider>,
  );
}

// Both figures are about seventy shapes: on a busy machine the first render alone can take seconds.
describe('the body diagram', { timeout: 30_000 }, () => {
  it('keeps the parts in the order of the list, whichever is clicked first', () => {
    expect(toggled(['right_knee'], 'head')).toEqual(['head', 'right_knee']);
    expect(toggled(['head', 'right_knee'], 'head')).toEqual(['right_knee']);
  });

  it('a part clicked on the drawing is ticked in the list, and the other way round', () => {
    renderDiagram();
    const front = screen.getByRole('group', { name: 'Front' });
    fireEvent.click(within(front).getByRole('checkbox', { name: 'Left hand (Front)' }));
    expect(within(front).getByRole('checkbox', { name: 'Left hand (Front)' }).getAttribute('aria-checked')).toBe('true');
    // The same part drawn on the back is the same choice.
    const back = screen.getByRole('group', { name: 'Back' });
    expect(within(back).getByRole('checkbox', { name: 'Left hand (Back)' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Pick from a list' }));
    const list = screen.getByRole('checkbox', { name: 'Left hand' });
    expect((list as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Right knee' }));
    expect(within(front).getByRole('checkbox', { name: 'Right knee (Front)' }).getAttribute('aria-checked')).toBe('true');
  });

  it('is one Tab stop per drawing: the arrow keys move, Space and Enter mark', () => {
    renderDiagram();
    const front = screen.getByRole('group', { name: 'Front' });
    const regions = within(front).getAllByRole('checkbox');
    expect(regions.filter((r) => r.getAttribute('tabindex') === '0')).toHaveLength(1);
    regions[0]!.focus();
    fireEvent.keyDown(regions[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(regions[1]);
    fireEvent.keyDown(regions[1]!, { key: ' ' });
    expect(regions[1]!.getAttribute('aria-checked')).toBe('true');
    fireEvent.keyDown(regions[1]!, { key: 'Enter' });
    expect(regions[1]!.getAttribute('aria-checked')).toBe('false');
    fireEvent.keyDown(regions[1]!, { key: 'End' });
    expect(document.activeElement).toBe(regions[regions.length - 1]);
  });

  it('a marked part can be removed from the summary', () => {
    renderDiagram(['neck']);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Neck' }));
    expect(screen.queryByText('No body part marked.')).not.toBeNull();
  });
});
