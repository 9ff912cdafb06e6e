import { Rng } from '../rng.ts';
import type { Product } from '../types.ts';
import { APPELLATIONS, BRANDS, FANCIFUL, VARIETALS } from './names.ts';
import { productKey, type World } from './state.ts';
import { WAREHOUSE_LIST } from './warehouses.ts';

/** How big the generated world is. */
export interface CatalogOptions {
  /** Number of suppliers (each with one account): SUP100/ACC100, SUP200/ACC200, ... Default 2. */
  suppliers: number;
  /** Wine products per supplier. Default 18 (plus a gift set, a PTO pack and an accessory). */
  winesPerSupplier: number;
  /**
   * Opening stock of every product in this one warehouse instead of one or two random ones: a
   * warehouse (and its FG sub-inventory) holding more rows than a small row cap.
   */
  stockWarehouse?: string | undefined;
}

/** Builds suppliers, accounts, products, opening inventory and packing slips at `at`. */
export function buildCatalog(world: World, options: CatalogOptions, at: number): void {
  const rng = Rng.of(world.seed, 'catalog');
  for (let i = 1; i <= options.suppliers; i++) {
    const id = `SUP${i}00`;
    const accountNumber = `ACC${i}00`;
    const brand = BRANDS[(i - 1) % BRANDS.length] as string;
    world.suppliers.push({ id, name: `${brand} Wines`, accountNumber });
    world.accounts.push({ number: accountNumber, name: `${brand} Wine Club`, supplierId: id });
  }
  const allAccounts = world.accounts.map((a) => a.number);
  for (const supplier of world.suppliers) {
    const brand = supplier.name.replace(/ Wines$/, '');
    const wines: Product[] = [];
    for (let n = 1; n <= options.winesPerSupplier; n++) {
      const sku = `${supplier.id.slice(3, 4)}W${String(n).padStart(3, '0')}`;
      const product = makeWine(world, rng, supplier.id, sku, brand, at);
      product.sellerAccounts = rng.chance(0.3) ? allAccounts : [supplier.accountNumber];
      wines.push(product);
      world.products.set(productKey(supplier.id, sku), product);
    }
    const first = wines[0] as Product;
    const second = wines[1] ?? first;
    const gset = makeWine(world, rng, supplier.id, `${supplier.id.slice(3, 4)}GSET1`, brand, at);
    Object.assign(gset, { itemTypeCode: 'GSET', description: `${brand} Holiday Gift Set`, itemsPerGset: 3 });
    const pto = makeWine(world, rng, supplier.id, `${supplier.id.slice(3, 4)}PTO1`, brand, at);
    Object.assign(pto, {
      itemTypeCode: 'PTO',
      description: `${brand} Tasting Duo`,
      ptoComponents: [
        { sku: first.sku, quantity: 1 },
        { sku: second.sku, quantity: 1 },
      ],
    });
    const acc = makeWine(world, rng, supplier.id, `${supplier.id.slice(3, 4)}ACC1`, brand, at);
    Object.assign(acc, {
      itemTypeCode: 'ACC',
      description: `${brand} Corkscrew`,
      alcoholTypeCode: '',
      retailPrice: 12,
    });
    for (const p of [gset, pto, acc]) {
      p.sellerAccounts = [supplier.accountNumber];
      world.products.set(productKey(supplier.id, p.sku), p);
    }
    stockOpening(world, rng, supplier.id, [...wines, gset], options.stockWarehouse);
  }
  for (let i = 0; i < 6; i++) {
    world.packingSlips.push({
      id: 1001 + i,
      name: `Packing slip ${i + 1}`,
      orderingCode: `ORD${i + 1}`,
      layoutCode: rng.pick(['STD', 'GIFT', 'CLUB']),
      useBrandLogo: rng.chance(0.5),
      marketingMessage: rng.pick([
        'Thank you for your order!',
        'Cheers from the vineyard',
        'Enjoy responsibly',
      ]),
      createdAt: at,
    });
  }
}

/** A wine product; also the starting point of the other item types. */
export function makeWine(
  world: World,
  rng: Rng,
  supplierId: string,
  sku: string,
  brand: string,
  at: number,
): Product {
  world.seq.product += 1;
  const varietal = rng.pick(VARIETALS);
  const vintage = String(rng.int(2014, 2023));
  const fanciful = rng.pick(FANCIFUL);
  return {
    supplierId,
    sku,
    providerSku: `P${String(100000 + world.seq.product)}`,
    description: `${brand} ${fanciful} ${varietal} ${vintage}`,
    itemTypeCode: 'WINE',
    brandName: brand,
    fancifulName: fanciful,
    appellation: rng.pick(APPELLATIONS),
    varietal,
    vintage,
    alcoholTypeCode: rng.chance(0.15) ? 'SPARKLING' : 'STILL',
    alcoholPercentage: Math.round((11 + rng.next() * 4) * 10) / 10,
    bottleSizeMl: rng.pick(['750', '750', '750', '1500', '375']),
    unitsPerCase: 12,
    regionOfOrigin: 'California',
    colaNumber: String(rng.int(10_000_000, 99_999_999)),
    vineyardDesignation: rng.chance(0.3) ? `${fanciful} Vineyard` : '',
    retailPrice: rng.money(18, 120),
    weight: 1.4,
    sellerAccounts: [],
    ptoComponents: [],
    itemsPerGset: 0,
    createdAt: at,
  };
}

function stockOpening(
  world: World,
  rng: Rng,
  supplierId: string,
  products: Product[],
  only: string | undefined,
): void {
  for (const product of products) {
    const picked = [rng.pick(WAREHOUSE_LIST), rng.pick(WAREHOUSE_LIST)];
    const homes = new Set(only === undefined ? picked : [only]);
    for (const wh of homes) {
      world.stockRow(supplierId, wh, 'FG', product.sku).qtyOnHand = rng.int(20, 400);
      if (rng.chance(0.2)) world.stockRow(supplierId, wh, 'QA', product.sku).qtyOnHand = rng.int(1, 12);
    }
  }
}
