import { registerCatalog, type Catalog } from '../../shared/i18n';
import type { ShellCatalog } from '../../shared/i18n/shell';
import { zhCN, type FeatureCatalog } from './zh-CN';
import { enUS } from './en-US';

/**
 * Registers the texts of every screen, dialog and feature next to the shell's. Imported by `main.tsx` before
 * anything renders (and by the test setup), so lazily loaded screens find their texts on first render.
 */
registerCatalog('zh', zhCN);
registerCatalog('en', enUS);

declare module '../../shared/i18n' {
  interface CatalogTypes {
    full: ShellCatalog & FeatureCatalog;
  }
}

export { zhCN, enUS };
export type { Catalog, FeatureCatalog };
