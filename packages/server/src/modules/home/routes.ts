import { homeApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import { administrators, homeOf } from './service.js';

export function homeRoutes(r: Router) {
  r.route(api.get, ({ tx, principal }) => homeOf(tx, principal));
  r.route(api.contacts, ({ tx }) => administrators(tx));
}
