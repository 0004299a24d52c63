import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';

// jsdom lacks the layout APIs Mantine reads at mount time; these stubs report "no match" and "no size".
if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  });
}

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
if (!('ResizeObserver' in window)) {
  Object.assign(window, { ResizeObserver: ResizeObserverStub });
  Object.assign(globalThis, { ResizeObserver: ResizeObserverStub });
}

// Mantine's autosizing textarea waits for web fonts; jsdom has no font loading API.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
}

// Testing Library only cleans up by itself when the runner exposes globals; ours does not. Mantine's
// dropdowns live in portals on <body>, outside the rendered container, so they are removed here too.
afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});

// The files of a worker share one jsdom (isolate: false): each starts with nothing stored.
beforeAll(() => {
  localStorage.clear();
  sessionStorage.clear();
});
