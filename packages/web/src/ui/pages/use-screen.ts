import { useMatches } from 'react-router';
import type { ScreenHandle } from '../../app/screen-loader.js';

/** The screen id of the deepest matched route (from the domain route table). */
export function useScreen(): string | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const screen = (matches[i]?.handle as ScreenHandle | undefined)?.screen;
    if (screen) return screen;
  }
  return null;
}
