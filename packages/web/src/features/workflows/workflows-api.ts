/** Query keys of the workflows screen; a write invalidates everything under `WORKFLOWS_KEY`. */
export const WORKFLOWS_KEY = ['workflows'] as const;
