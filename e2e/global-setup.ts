import type { TestProject } from 'vitest/node';
import { dropProductTemplate, makeProductTemplate } from './product.js';

/**
 * Starts the product once on a new database (initdb or a new database on the DATABASE_URL server, the
 * migrations, the demo seed) and stops it; every browser file's product then starts on a copy of it.
 */
export default async function setup(project: TestProject) {
  const template = await makeProductTemplate();
  project.provide('productTemplate', template);
  return () => dropProductTemplate(template);
}
