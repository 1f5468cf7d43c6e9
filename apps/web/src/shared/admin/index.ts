export { AdminPage } from './AdminPage';
export { tablePagination, usePagedList } from './usePagedList';
export type { PagedList } from './usePagedList';
