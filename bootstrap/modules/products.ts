import { productCsvRoutes } from '../../adapters/http/routes/products-csv.routes.js';
import { productRoutes } from '../../adapters/http/routes/products.routes.js';
import { stockTransferRoutes } from '../../adapters/http/routes/stock-transfers.routes.js';
import { adjustStock, getStockMovement, listStockMovements } from '../../application/products/adjust-stock.js';
import { productsWithStock } from '../../application/products/branch-stock.js';
import { exportProducts } from '../../application/products/export-products.js';
import { getVatSettings } from '../../application/business/get-business.js';
import { importProducts } from '../../application/products/import-products.js';
import { archiveProduct, createProduct, getProduct, listCategories, listProducts, restoreProduct, updateProduct } from '../../application/products/manage-products.js';
import { getStockTransfer, listStockTransfers, transferStock } from '../../application/products/transfer-stock.js';
import { inMemoryProductsModule } from '../../adapters/persistence/in-memory/products.in-memory.js';
import { sqlProductsModule } from '../../adapters/persistence/sql/products.sql.js';
import { PRODUCT_FAILURES } from '../../adapters/http/failures/products.js';
import { defineModule, repositories } from './module.js';

/** Products, stock adjustments, branch stock and transfers, the CSV import and export. */
export const productsModule = defineModule({
  name: 'products',
  folders: ['products'],
  repositories: [repositories(inMemoryProductsModule, sqlProductsModule)],
  failures: [PRODUCT_FAILURES],
  migrations: [
    { name: 'Migration20261122010000_products', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261122010000_products.js')).Migration20261122010000_products },
    { name: 'Migration20261127300000_branch_stock', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261127300000_branch_stock.js')).Migration20261127300000_branch_stock },
    { name: 'Migration20261210000000_product_sort_keys', load: async () => (await import('../../adapters/persistence/sql/migrations/Migration20261210000000_product_sort_keys.js')).Migration20261210000000_product_sort_keys },
  ],
  useCases: ({ deps, paging }) => ({
    createProduct: createProduct(deps),
    getProduct: getProduct(deps),
    listProducts: listProducts(deps),
    listCategories: listCategories(deps),
    updateProduct: updateProduct(deps),
    archiveProduct: archiveProduct(deps),
    restoreProduct: restoreProduct(deps),
    adjustStock: adjustStock(deps),
    listStockMovements: listStockMovements(deps),
    getStockMovement: getStockMovement(deps),
    productsWithStock: productsWithStock(deps),
    transferStock: transferStock(deps),
    listStockTransfers: listStockTransfers(deps),
    getStockTransfer: getStockTransfer(deps),
    importProducts: importProducts(deps),
    exportProducts: exportProducts(deps),
    getVatSettings: getVatSettings(deps),
    paging,
  }),
  // The CSV routes before GET /products/:id, which would take /products/export; and /products/stock-transfers.
  routes: (uc) => [...productCsvRoutes(uc), ...stockTransferRoutes(uc), ...productRoutes(uc)],
});
