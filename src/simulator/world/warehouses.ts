/** The six warehouses of spec section 1, and the sub-inventories the simulator stocks. */
export const WAREHOUSES: Readonly<Record<string, string>> = {
  GLW: 'Glenwillow',
  WDI: 'Green Island',
  PSO: 'Paso Robles',
  SMA: 'Santa Maria',
  SHW: 'Willamette Valley',
  DAL: 'Dallas',
};
export const WAREHOUSE_LIST = Object.keys(WAREHOUSES);

export const SUB_INVENTORIES: Readonly<Record<string, string>> = {
  FG: 'Finished Goods',
  QA: 'Quality Hold',
  DMG: 'Damaged',
};

export const ITEM_TYPE_NAMES: Readonly<Record<string, string>> = {
  ACC: 'Accessory',
  FOOD: 'Food',
  GSET: 'Gift Set',
  CARD: 'Greeting Card',
  PACK: 'Packaging',
  WINE: 'Wine/Sparkling',
  PTO: 'Pick To Order',
  INSERT: 'Insert',
};

export const PICKUP_SITES: ReadonlyArray<{
  id: number;
  code: string;
  line1: string;
  city: string;
  state: string;
  zip: string;
}> = [
  { id: 501, code: 'PS-NAPA', line1: '1200 Vineyard Rd', city: 'Napa', state: 'CA', zip: '94558' },
  { id: 502, code: 'PS-SONOMA', line1: '88 Cellar Ln', city: 'Sonoma', state: 'CA', zip: '95476' },
];
