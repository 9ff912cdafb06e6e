import { ITEM_TYPE_CODES, wineProductCreateSchema } from '../../api/records/index.ts';
import { ownedProductRecord, productDetailRecord } from '../records/products.ts';
import { productKey } from '../world/state.ts';
import { badRequest, type Handler, notFound, ok } from './context.ts';
import { q, required } from './params.ts';

/** POST Products/Skus/Wine: the new SKU appears in the listing and detail; payload is its providerSku. */
export const createWine: Handler = (ctx, req) => {
  const parsed = wineProductCreateSchema.safeParse(req.body);
  if (!parsed.success)
    return badRequest(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const w = parsed.data;
  const supplier = ctx.world.suppliers.find((s) => s.id === w.supplierId);
  if (!supplier) return badRequest(`supplierId ${w.supplierId} is not known`);
  if (ctx.world.products.has(productKey(w.supplierId, w.sku)))
    return badRequest(`SKU ${w.sku} already exists for ${w.supplierId}`);
  ctx.world.seq.product += 1;
  const product = {
    supplierId: w.supplierId,
    sku: w.sku,
    providerSku: `P${String(100000 + ctx.world.seq.product)}`,
    description: [w.brandName, w.fancifulName, w.varietal, w.vintage].filter(Boolean).join(' '),
    itemTypeCode: 'WINE',
    brandName: w.brandName,
    fancifulName: w.fancifulName ?? '',
    appellation: w.appellation,
    varietal: w.varietal ?? '',
    vintage: w.vintage ?? '',
    alcoholTypeCode: w.alcoholType,
    alcoholPercentage: w.alcoholPercentage ?? 0,
    bottleSizeMl: w.bottleSize,
    unitsPerCase: w.caseQuantity ?? 12,
    regionOfOrigin: w.regionOfOrigin ?? '',
    colaNumber: w.colaNumber ?? '',
    vineyardDesignation: w.vineyardDesignation ?? '',
    retailPrice: w.srp ?? 0,
    weight: 1.4,
    sellerAccounts: w.sellerAccountNumbers ?? [supplier.accountNumber],
    ptoComponents: [],
    itemsPerGset: 0,
    createdAt: ctx.now,
  };
  ctx.world.products.set(productKey(w.supplierId, w.sku), product);
  ctx.world.log(ctx.now, 'product.created', productKey(w.supplierId, w.sku), {
    providerSku: product.providerSku,
  });
  return ok(product.providerSku);
};

/** GET Products/{supplierId}/{sku} */
export const productDetail: Handler = (ctx, req) => {
  const product = ctx.world.products.get(productKey(req.params.supplierId ?? '', req.params.sku ?? ''));
  if (!product)
    return notFound(`Product ${req.params.sku} was not found for supplier ${req.params.supplierId}`);
  return ok(productDetailRecord(ctx.world, product));
};

/** GET Products/Owned/Listing */
export const ownedProducts: Handler = (ctx, req) => {
  const op = 'GET Products/Owned/Listing';
  const supplierId = required(q(ctx, req, op, 'supplierId'), 'supplierId', 2);
  const itemTypeCode = q(ctx, req, op, 'itemTypeCode');
  if (itemTypeCode !== undefined && !(ITEM_TYPE_CODES as readonly string[]).includes(itemTypeCode)) {
    return badRequest(`itemTypeCode must be one of ${ITEM_TYPE_CODES.join(', ')}`);
  }
  const sku = q(ctx, req, op, 'sku');
  const rows = [...ctx.world.products.values()].filter(
    (p) =>
      p.supplierId === supplierId &&
      (itemTypeCode === undefined || p.itemTypeCode === itemTypeCode) &&
      (sku === undefined || p.sku === sku),
  );
  return ok(rows.map((p) => ownedProductRecord(ctx.world, p)));
};
