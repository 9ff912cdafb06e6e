/** Word lists the generators draw from. */
export const BRANDS = [
  'Oak Ridge',
  'Silver Creek',
  'Coastal Bloom',
  'Red Mesa',
  'Hidden Valley',
  'Stone Arch',
];
export const VARIETALS = [
  'Cabernet Sauvignon',
  'Pinot Noir',
  'Chardonnay',
  'Zinfandel',
  'Syrah',
  'Merlot',
  'Riesling',
  'Sauvignon Blanc',
];
export const APPELLATIONS = [
  'Napa Valley',
  'Sonoma Coast',
  'Paso Robles',
  'Willamette Valley',
  'Santa Maria Valley',
  'Russian River Valley',
];
export const FANCIFUL = [
  'Reserve',
  'Estate',
  'Old Vine',
  'Hillside',
  'Twilight',
  'Cuvee No. 7',
  'Barrel Select',
];
export const FIRST_NAMES = [
  'Ana',
  'Ben',
  'Chloe',
  'Diego',
  'Emma',
  'Farah',
  'Gus',
  'Hana',
  'Ivan',
  'June',
  'Kofi',
  'Lena',
];
export const LAST_NAMES = [
  'Nguyen',
  'Smith',
  'Garcia',
  'Okafor',
  'Rossi',
  'Kim',
  'Novak',
  'Silva',
  'Cohen',
  'Patel',
];
export const STREETS = ['Main St', 'Oak Ave', 'Pine Rd', 'Market St', 'Cedar Ln', 'Lake Dr', 'Hill Blvd'];
export const PLACES: ReadonlyArray<{ city: string; state: string; stateName: string; zip: string }> = [
  { city: 'Portland', state: 'OR', stateName: 'Oregon', zip: '97205' },
  { city: 'Seattle', state: 'WA', stateName: 'Washington', zip: '98101' },
  { city: 'Denver', state: 'CO', stateName: 'Colorado', zip: '80202' },
  { city: 'Austin', state: 'TX', stateName: 'Texas', zip: '78701' },
  { city: 'Chicago', state: 'IL', stateName: 'Illinois', zip: '60601' },
  { city: 'San Diego', state: 'CA', stateName: 'California', zip: '92101' },
  { city: 'Boston', state: 'MA', stateName: 'Massachusetts', zip: '02108' },
  { city: 'Atlanta', state: 'GA', stateName: 'Georgia', zip: '30303' },
];
export const HUBS: ReadonlyArray<{ city: string; state: string }> = [
  { city: 'Oakland', state: 'CA' },
  { city: 'Reno', state: 'NV' },
  { city: 'Salt Lake City', state: 'UT' },
  { city: 'Memphis', state: 'TN' },
  { city: 'Louisville', state: 'KY' },
];
export const RETURN_REASONS: Readonly<Record<string, string>> = {
  DMG: 'Damaged in transit',
  REF: 'Refused by consignee',
  UND: 'Undeliverable address',
  AGE: 'No adult signature',
};
export const RESOLUTIONS: Readonly<Record<string, string>> = {
  RESTOCK: 'Restocked',
  DESTROY: 'Destroyed',
  RESHIP: 'Reshipped to consumer',
};
export const ORDER_TYPE_NAMES: Readonly<Record<string, string>> = {
  CLUB: 'Club Order',
  STND: 'Daily Order',
  SPCL: 'Special Order',
  VC: 'Visitor Center',
  DAILY: 'Daily Order',
  SPECIAL: 'Special Order',
  CORP: 'Corp Order',
};
export const STATUS_NAMES: Readonly<Record<string, string>> = {
  SHIPPED: 'Shipped',
  IN_TRANSIT: 'In Transit',
  DELIVERED: 'Delivered',
  EXCEPTION: 'Exception',
  RETURNED: 'Returned',
  NEW: 'New',
  IN_PROCESS: 'In Process',
  RESOLVED: 'Resolved',
  DRAFT: 'Draft',
  SUBMITTED: 'Submitted',
  PROCESSING: 'Processing',
  CLOSED: 'Closed',
  CANCELLED: 'Cancelled',
  OPEN: 'Open',
  RELEASED: 'Released',
};
