import type { CategoryModule } from '@bulwark/domain';
import { useTranslation } from 'react-i18next';
import { useCategoryTypesQuery } from './categories-api.js';

/** GET /api/categories/category_types, as select options for the module and type pickers. */
export function useCategoryTypes() {
  const { t } = useTranslation();
  const query = useCategoryTypesQuery();
  const modules = query.data?.category_types ?? [];
  return {
    ...query,
    moduleOptions: modules.map((m) => ({ value: m.module, label: t(`categories.modules.${m.module}`) })),
    typeOptions: (module: CategoryModule | null) =>
      modules
        .filter((m) => module === null || m.module === module)
        .flatMap((m) => m.types.map((type) => ({ value: type, label: t(`categories.types.${type}`) })))
        .filter((o, i, all) => all.findIndex((x) => x.value === o.value) === i),
  };
}
