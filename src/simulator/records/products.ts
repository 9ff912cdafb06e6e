import type { OwnedProduct, ProductDetail } from '../../api/records/index.ts';
import type { Product } from '../types.ts';
import type { World } from '../world/state.ts';
import { ITEM_TYPE_NAMES, WAREHOUSES } from '../world/warehouses.ts';

/** A row of Products/Owned/Listing. */
export function ownedProductRecord(world: World, p: Product): OwnedProduct {
  const supplier = world.suppliers.find((s) => s.id === p.supplierId);
  const account = world.accounts.find((a) => a.supplierId === p.supplierId);
  return {
    supplierId: p.supplierId,
    accountNumber: account?.number ?? null,
    sku: p.sku,
    description: p.description,
    providerSku: p.providerSku,
    supplierName: supplier?.name ?? null,
    accountName: account?.name ?? null,
    itemTypeCode: p.itemTypeCode,
    itemTypeName: ITEM_TYPE_NAMES[p.itemTypeCode] ?? null,
    packSlipDescription: p.description.slice(0, 40),
  };
}

/** The product-detail payload: header, selling infos, PTO components, gift-set stock. */
export function productDetailRecord(world: World, p: Product): ProductDetail {
  const supplier = world.suppliers.find((s) => s.id === p.supplierId);
  const component = (sku: string) => world.products.get(`${p.supplierId}|${sku}`);
  return {
    isOwner: true,
    itemTypeCode: p.itemTypeCode,
    header: {
      supplierId: p.supplierId,
      providerSku: p.providerSku,
      sku: p.sku,
      upcCode: `0${p.providerSku.slice(1)}00001`,
      description: p.description,
      itemTypeCode: p.itemTypeCode,
      itemTypeName: ITEM_TYPE_NAMES[p.itemTypeCode] ?? null,
      brandName: p.brandName,
      fancifulName: p.fancifulName,
      appellation: p.appellation,
      varietal: p.varietal,
      vintage: p.vintage,
      alcoholTypeCode: p.alcoholTypeCode || null,
      alcoholPercentage: String(p.alcoholPercentage),
      bottleSizeMl: p.bottleSizeMl,
      unitsPerCase: String(p.unitsPerCase),
      vineyardDesignation: p.vineyardDesignation || null,
      ttbApprovalNumber: p.colaNumber,
      countryOfOriginCode: 'US',
      countryOfOriginName: 'United States',
      regionOfOrigin: p.regionOfOrigin,
      weight: p.weight,
      unitsOfMeasure: 'EA',
      isAvailableForSourcing: true,
      additionalAttributes: null,
      isBidStickered: false,
      retailPrice: p.retailPrice,
      supplierName: supplier?.name ?? null,
      deactivationStatus: 'NotSet',
      vasCode: null,
      vasName: null,
      orientation: 'UPRIGHT',
      location: null,
    },
    sellingInfos: p.sellerAccounts.map((number) => ({
      sellerAccountNumber: number,
      sellerName: world.accounts.find((a) => a.number === number)?.name ?? null,
      providerSku: p.providerSku,
      sku: p.sku,
      description: p.description,
      retailPrice: p.retailPrice,
      supplierName: supplier?.name ?? null,
      supplierPayment: Math.round(p.retailPrice * 60) / 100,
    })),
    ptoInfos: p.ptoComponents.map((c, i) => ({
      componentNumber: i + 1,
      providerSku: component(c.sku)?.providerSku ?? null,
      sku: c.sku,
      description: component(c.sku)?.description ?? null,
      quantity: c.quantity,
      retailPrice: component(c.sku)?.retailPrice ?? null,
      weight: component(c.sku)?.weight ?? null,
      unitsOfMeasure: 'EA',
      itemTypeCode: 'WINE',
      itemTypeName: ITEM_TYPE_NAMES.WINE ?? null,
    })),
    bomInventories:
      p.itemTypeCode !== 'GSET'
        ? []
        : [...world.inventory.values()]
            .filter((r) => r.supplierId === p.supplierId && r.sku === p.sku && !r.dropped)
            .map((r) => ({
              warehouseCode: r.warehouseCode,
              warehouseName: WAREHOUSES[r.warehouseCode] ?? null,
              providerSku: p.providerSku,
              sku: p.sku,
              description: p.description,
              subInventoryCode: r.subInventoryCode,
              itemsPerGset: p.itemsPerGset,
              gsetsOnhand: r.qtyOnHand,
              itemsInGsets: r.qtyOnHand * p.itemsPerGset,
              gsetsReserved: r.qtyOnOrders,
              itemsInReservedGsets: r.qtyOnOrders * p.itemsPerGset,
              gsetsAvailable: Math.max(0, r.qtyOnHand - r.qtyOnOrders),
              itemsInAvailableGsets: Math.max(0, r.qtyOnHand - r.qtyOnOrders) * p.itemsPerGset,
            })),
  };
}
