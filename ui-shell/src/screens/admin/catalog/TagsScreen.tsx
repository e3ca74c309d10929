import { TagsPage } from './CatalogPages.tsx';

export default TagsPage;
