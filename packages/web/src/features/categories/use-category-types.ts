import type { CategoryModule, CategoryTypesResponse } from '@bulwark/domain';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../app/services.js';
import { CATEGORY_TYPES_KEY } from './categories-api.js';

/** GET /api/categories/category_types, as select options for the module and type pickers. */
export function useCategoryTypes() {
  const { t } = useTranslation();
  const { http } = useServices();
  const query = useQuery({
    queryKey: CATEGORY_TYPES_KEY,
    queryFn: () => http.get<CategoryTypesResponse>('/api/categories/category_types'),
    staleTime: Infinity,
  });
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
