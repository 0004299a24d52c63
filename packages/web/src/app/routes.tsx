import { ROUTES, type RouteDef } from '@bulwark/domain';
import type { ScreenHandle } from './screen-loader.js';
import type { RouteObject } from 'react-router';
import { BareLayout } from './bare-layout.js';
import { createGuardLoader } from './guard-loader.js';
import { RootError, RootFallback, RootLayout } from './root-layout.js';
import { isBareScreen, screenLoader } from './screens.js';
import type { Services } from './services.js';

export type RouteOptions = {
  /**
   * Fetches the texts beyond the sign-in page's (i18n/lazy.ts). Every screen but the sign-in page waits
   * for them with its code, so none shows a missing text; a failed fetch still shows the screen.
   */
  allTexts?: () => Promise<void>;
};

function toRoute(def: RouteDef, { allTexts }: RouteOptions): RouteObject {
  const load = screenLoader(def.screen);
  const texts = def.screen === 'login' || !allTexts ? null : allTexts;
  return {
    path: def.path,
    handle: { screen: def.screen } satisfies ScreenHandle,
    lazy: async () => {
      const [Component] = await Promise.all([load(), texts?.().catch(() => undefined)]);
      return { Component };
    },
  };
}

/** The router tree, built from the domain's route table: one guard loader at the root decides every navigation. */
export function buildRoutes(services: Services, options: RouteOptions = {}): RouteObject[] {
  const bare = ROUTES.filter((r) => isBareScreen(r.screen, r.guard.kind));
  const shell = ROUTES.filter((r) => !isBareScreen(r.screen, r.guard.kind));
  return [
    {
      id: 'root',
      loader: createGuardLoader(services),
      // The guard must run on every navigation, not only when the root's own params change.
      shouldRevalidate: () => true,
      Component: RootLayout,
      HydrateFallback: RootFallback,
      ErrorBoundary: RootError,
      children: [
        { id: 'bare', Component: BareLayout, children: bare.map((def) => toRoute(def, options)) },
        {
          id: 'shell',
          lazy: async () => ({ Component: (await import('./shell/app-shell.js')).AppShellLayout }),
          children: shell.map((def) => toRoute(def, options)),
        },
        // Unknown paths: the guard loader redirects (signed in -> /not_found, signed out -> /login).
        { path: '*', Component: RootFallback },
      ],
    },
  ];
}
