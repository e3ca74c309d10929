import { QuickMessagesPage } from './CatalogPages.tsx';

export default QuickMessagesPage;
