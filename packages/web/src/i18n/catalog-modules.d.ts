// The per-language catalogue chunks that vite.config.ts builds from @bulwark/domain: each is some of the
// sections of a language (`virtual:catalog/<language>/first` or `/rest`).
declare module 'virtual:catalog/*' {
  import type { Messages } from '@bulwark/domain';

  const catalog: Partial<Messages>;
  export default catalog;
}
