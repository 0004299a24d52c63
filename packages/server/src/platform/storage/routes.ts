import { errorResponse } from '@bulwark/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTenant } from '../db/db.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { principalOf } from '../http/access.js';
import { mayReadFile } from './gates.js';
import type { Storage } from './storage.js';

/**
 * Serves a stored file to a signed-in user of its organisation. Row-level security hides another
 * organisation's files; within the organisation, the gates of the modules that link an attachment
 * decide (`gates.ts`). A file the reader may not see is "not found" too, confirming nothing.
 * Module routes decide who may attach or remove files.
 */
export function fileRoutes(app: FastifyInstance, deps: AppDeps, storage: Storage) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/files/:id',
    {
      config: { access: { session: true } },
      schema: {
        tags: ['Files'],
        summary: 'Download a stored file',
        params: z.object({ id: z.uuid({ message: 'validation.invalid' }) }),
        response: {
          200: z.unknown().describe('The file, with its stored type'),
          400: errorResponse,
          401: errorResponse,
          403: errorResponse,
          404: errorResponse,
        },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const row = await inTenant(deps.db.app, p.organizationId, async (tx) => {
        const found = await storage.find(tx, req.params.id);
        return found && (await mayReadFile(tx, p, found)) ? found : null;
      });
      if (!row) throw new AppError('not_found');
      const inline = row.mimeType.startsWith('image/') || row.mimeType === 'application/pdf';
      return reply
        .header('content-type', row.mimeType)
        .header('content-length', String(row.sizeBytes))
        .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(row.fileName)}`)
        .header('cache-control', 'private, max-age=300')
        .send(storage.open(row.storageKey));
    },
  );
}
