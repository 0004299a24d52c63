import { ROUTES, type RouteDef } from '@bulwark/domain';
import type { ScreenHandle } from './screen-loader.js';
import type { RouteObject } from 'react-router';
import { BareLayout } from './bare-layout.js';
import { createGuardLoader } from './guard-loader.js';
import { RootError, RootFallback, RootLayout } from './root-layout.js';
import { isBareScreen, screenLoader } from './screens.js';
import type { Services } from './services.js';

function toRoute(def: RouteDef): RouteObject {
  const load = screenLoader(def.screen);
  return {
    path: def.path,
    handle: { screen: def.screen } satisfies ScreenHandle,
    lazy: async () => ({ Component: await load() }),
  };
}

/** The router tree, built from the domain's route table: one guard loader at the root decides every navigation. */
export function buildRoutes(services: Services): RouteObject[] {
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
        { id: 'bare', Component: BareLayout, children: bare.map(toRoute) },
        {
          id: 'shell',
          lazy: async () => ({ Component: (await import('./shell/app-shell.js')).AppShellLayout }),
          children: shell.map(toRoute),
        },
        // Unknown paths: the guard loader redirects (signed in -> /not_found, signed out -> /login).
        { path: '*', Component: RootFallback },
      ],
    },
  ];
}
