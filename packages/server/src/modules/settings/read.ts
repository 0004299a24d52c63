/**
 * What other modules may read of the settings module: users' e-mail subscriptions, to join in their own
 * queries (mailers/send.ts reads the recipient's choice with everything else a mail needs). Other
 * modules never write them; a lint rule holds every other module to this file instead of `tables.ts`.
 */
export { emailSubscriptions } from './tables.js';
