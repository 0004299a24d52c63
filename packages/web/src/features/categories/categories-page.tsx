import { useLocation, useParams } from 'react-router';
import { CategoryForm } from './category-form.js';
import { CategoryList } from './category-list.js';

/** The `categories` screen serves /categories, /categories/new and /categories/edit/:id. */
export function CategoriesPage() {
  const { pathname } = useLocation();
  const { id } = useParams();
  if (/\/categories\/new\/?$/.test(pathname)) return <CategoryForm key="new" categoryId={null} />;
  if (id && /\/categories\/edit\//.test(pathname)) return <CategoryForm key={id} categoryId={id} />;
  return <CategoryList />;
}
