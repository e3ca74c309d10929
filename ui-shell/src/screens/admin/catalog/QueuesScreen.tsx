import { QueuesPage } from './CatalogPages.tsx';

export default QueuesPage;
