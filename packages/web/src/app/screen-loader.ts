import type { ScreenId } from '@bulwark/domain';
import type { ComponentType } from 'react';

/** Loads the page of a screen on demand (route-level code splitting). */
export type ScreenLoader = () => Promise<ComponentType>;

/** A module's pages by screen id of the domain route table: an id the table lacks does not compile. */
export type ScreenLoaders = Partial<Record<ScreenId, ScreenLoader>>;

/** What a matched route carries for the shell: its screen id (title, menu highlight). */
export type ScreenHandle = { screen: ScreenId };
