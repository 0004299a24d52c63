import '@mantine/core/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createBrowserServices } from './app/browser-services.js';
import { Providers } from './app/providers.js';
import { buildRoutes } from './app/routes.js';

const { services, wiring, ready, allTexts } = createBrowserServices();
const router = createBrowserRouter(buildRoutes(services, { allTexts }));
wiring.navigate = (to) => void router.navigate(to, { replace: true });
wiring.revalidate = () => void router.revalidate();

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');

// The texts come first; if they cannot be fetched the app still starts, showing keys instead of words.
void ready
  .catch(() => undefined)
  .then(() => {
    createRoot(root).render(
      <StrictMode>
        <Providers services={services}>
          <RouterProvider router={router} />
        </Providers>
      </StrictMode>,
    );
  });
