/**
 * JSON members known to hold nothing personal, as the API names them in the record schemas it
 * details: codes and their names, identifiers, quantities, amounts, SKUs and product attributes,
 * dates, statuses, flags, and the consumer's city, state, postal code and country (kept for regional
 * analysis). A reader reads these members of `raw` and the other JSON columns as received (a value
 * that looks like an e-mail, phone or street line excepted); every other member, at any depth, is
 * hashed, whatever its type (a phone may arrive as a number), so members the spec leaves "not
 * shown" (billings, notes, contents, trackings, account-payable records, personalizations) and any
 * the API adds later are masked until listed here. Matched by name wherever they appear, lowercased
 * and without `_` or `-`. Containers (`header`, `lineItems`, `events`, ...) are not listed: their
 * members are judged one by one; an array of plain values is read as its member is.
 *
 * Deliberately absent: names, e-mails, phones and street lines (`firstName`, `notificationEmail`,
 * `address1`, `pickupSiteLine1`, `pickupSitePhone`, ...), free text (`giftMessage`,
 * `shippingInstructions`, `holdComment`, `releaseComment`, `message`, `noteText`,
 * `notificationStatusMessage`, all of a personalization but its line number), and who did something (`createdBy`,
 * `lastUpdatedBy`). A member a column mirrors is marked as that column is (a test checks it).
 */
export const SAFE_JSON_MEMBERS = `
  isSuccess
  accountNumber customerName warehouseCode warehouseName providerOrderNumber orderNumber receivedDate
  creationDate customerOrderDate requestedShipDate fulfillmentDate shippedDate batchNumber orderTypeCode
  orderTypeName requestedServiceLevel plannedServiceLevel orderStatusCode orderStatusName collapsedStatus
  complianceRoute fulfillmentRoute packingSlipCode packingSlipName isOnsitePurchase isLineHaul isEditable
  isCancellable isBackOrdered hasInventoryHold slaStatusCode slaStatusName slaDate notificationTemplateCode
  notificationTemplateName packagingTypeCode packagingTypeName
  holdStatus holdName holdDescription releaseReason expirationDate releaseDate isDirectlyReleasable
  messageType messageTime
  isResidentialAddress city stateCode stateName postalCode countryCode countryName deliveryStatusCode
  deliveryStatusName deliveryAddressTypeCode deliveryAddressTypeName
  lineNumber componentNumber inventoryItemId sku description isShippable quantityOrdered quantityReserved
  quantityShipped itemShortage uom unitPrice subInventoryCode subInventoryName isBomComponent
  shipmentKey
  supplierId caseQuantity srp brandName appellation alcoholType alcoholPercentage bottleSize fancifulName
  varietal vineyardDesignation countryOfOrigin regionOfOrigin colaNumber vintage sellerAccountNumbers
  isOwner itemTypeCode providerSku upcCode itemTypeName alcoholTypeCode bottleSizeMl unitsPerCase
  ttbApprovalNumber countryOfOriginCode countryOfOriginName weight unitsOfMeasure isAvailableForSourcing
  additionalAttributes isBidStickered retailPrice supplierName deactivationStatus vasCode vasName orientation
  location sellerAccountNumber sellerName supplierPayment quantity itemsPerGset gsetsOnhand itemsInGsets
  gsetsReserved itemsInReservedGsets gsetsAvailable itemsInAvailableGsets
  accountName packSlipDescription
  rowId referenceNumber submittedDate statusCode statusName deliveryMethodCode deliveryMethodName pickupSiteId
  pickupSiteCode pickupSiteCity pickupSiteStateCode pickupSitePostalCode pickupSiteCountryCode expectedDate
  lastUpdateDate closedDate notificationStatusCode notificationStatusName headerRowId skuDescription
  qtyOrdered qtyReceived supplierSku qty typeCode noteTimestamp
  orderedDate requestedPriority requestDate status
  qtyOnHand qtyOnOrders qtyOnIns qtyAvailableToSell qtyAvailableToPromise skuType beginningOnHand
  endingOnHand qtyTransferredIn qtyTransferredOut qtyMovedIn qtyMovedOut qtyShipped qtyAdjusted qtyDamaged
  qtyReturned qtyKitted qtyOther
  shipReturnId shipFromWarehouseCode consumerCity consumerState consumerZipCode wmsCarrierCode carrierCode
  trackingNumber trackingNumberUrl trackingStatusUrl returnReasonCode returnReasonName processingStatusCode
  processingStatusName resolutionCode resolutionName shipDate returnDate hasPersonalizations quantityReturned
  quantityDamaged quantityMissing
  containerId carrierName statusDescription eventTime stateOrProvince
  invoiceNumber invoiceType orderCount invoiceDate classInvoiceAmount totalInvoiceAmount paymentsReceived
  balanceDue
`;
