export { AdminPage } from './AdminPage';
export { tablePagination, usePagedList } from './usePagedList';
export type { PagedList } from './usePagedList';
export { useUpload } from './useUpload';
export type { Upload, UploadCallOptions } from './useUpload';
export { SearchFilter } from './SearchFilter';
export { columnsWidth } from './tableWidth';
