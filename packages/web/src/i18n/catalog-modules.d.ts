// The per-language catalogue chunks that vite.config.ts builds from @bulwark/domain.
declare module 'virtual:catalog/*' {
  import type { Messages } from '@bulwark/domain';

  const catalog: Messages;
  export default catalog;
}
